// A first-in first-out queue on one vector: what a pipe's queue and a flag's pending sets are. std::deque
// allocates its map and a 512-byte block when it is made, even empty, and a launch makes several per core and
// one per flag a kernel uses (a fifth of a property case's heap calls); this one allocates on its first
// push, and keeps its storage when it empties, so a queue that fills and drains again allocates nothing
// more. The elements in use are [head_, items_.size()); popped ones are left as moved-from values until the
// queue empties or they are the larger part, when they are dropped.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace evg::hw {

template <class T>
class Fifo {
  public:
    using iterator = typename std::vector<T>::iterator;
    using const_iterator = typename std::vector<T>::const_iterator;

    bool empty() const { return head_ == items_.size(); }
    size_t size() const { return items_.size() - head_; }

    T& front() { return items_[head_]; }
    const T& front() const { return items_[head_]; }
    T& operator[](size_t i) { return items_[head_ + i]; }
    const T& operator[](size_t i) const { return items_[head_ + i]; }

    iterator begin() { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
    iterator end() { return items_.end(); }
    const_iterator begin() const { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
    const_iterator end() const { return items_.end(); }

    void push_back(T v) {
        if (head_ != 0 && head_ == items_.size()) clear();
        items_.push_back(std::move(v));
    }

    void pop_front() {
        items_[head_] = T{};  // what it owned goes now, not when the storage is reused
        ++head_;
        if (head_ == items_.size())
            clear();
        else if (head_ >= kCompactFrom && 2 * head_ >= items_.size()) {
            items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
            head_ = 0;
        }
    }

    // Removes the element at `it` (an iterator of this queue's elements in use).
    void erase(iterator it) {
        if (it == begin()) {
            pop_front();
            return;
        }
        items_.erase(it);
    }

    void clear() {
        items_.clear();
        head_ = 0;
    }

  private:
    static constexpr size_t kCompactFrom = 64;
    std::vector<T> items_;
    size_t head_ = 0;
};

}  // namespace evg::hw
