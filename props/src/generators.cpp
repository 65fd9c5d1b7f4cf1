#include "evg/props/generators.hpp"

#include <algorithm>

namespace evg::props {

namespace gen = rc::gen;

namespace {

rc::Gen<Gene> gene_gen() {
    return gen::exec([] {
        Gene g;
        // Compute-heavy; loads common enough to give fresh leaves; every kind present.
        g.op = *gen::weightedElement<uint8_t>({{6, uint8_t(GeneOp::AccLoad)},
                                               {8, uint8_t(GeneOp::AuxLoad)},
                                               {5, uint8_t(GeneOp::RowBroadcast)},
                                               {5, uint8_t(GeneOp::ColBroadcast)},
                                               {4, uint8_t(GeneOp::ScalarBroadcast)},
                                               {30, uint8_t(GeneOp::Compute)},
                                               {10, uint8_t(GeneOp::Cast)},
                                               {5, uint8_t(GeneOp::AuxStore)},
                                               {4, uint8_t(GeneOp::RowReduce)},
                                               {4, uint8_t(GeneOp::ColReduce)},
                                               {4, uint8_t(GeneOp::ScalarReduce)}});
        g.dtype = *gen::weightedElement<uint8_t>({{40, 0}, {30, 1}, {12, 2}, {8, 3}, {6, 4}, {4, 5}});
        // Uniform over 0..255 at every size (arbitrary<uint8_t> stays near 0 at small sizes, which made the
        // first functors of each list, mostly unary ones, nearly the only ones drawn).
        static const std::vector<uint8_t> any_byte = [] {
            std::vector<uint8_t> v(256);
            for (int i = 0; i < 256; ++i) v[static_cast<std::size_t>(i)] = static_cast<uint8_t>(i);
            return v;
        }();
        g.fn = *gen::noShrink(gen::elementOf(any_byte));
        g.round =
            *gen::weightedElement<uint8_t>({{25, 0}, {15, 1}, {12, 2}, {12, 3}, {12, 4}, {12, 5}, {12, 6}});
        g.extra = *gen::element<uint8_t>(0, 0, 1, 2);  // (not inRange: it stays at 0 at small sizes)
        g.scalar = *gen::inRange<int>(0, 16);
        g.strided = *gen::element(false, true);
        // Mostly the previous node or one shortly before (chains and shared subexpressions), sometimes far.
        const int nrefs = *gen::element(1, 2, 3);
        for (int i = 0; i < nrefs; ++i)
            g.refs.push_back(
                *gen::weightedElement<uint8_t>({{8, 0}, {4, 1}, {3, 2}, {2, 3}, {2, 5}, {1, 200}}));
        return g;
    });
}

rc::Gen<int64_t> dim_gen(int64_t tile, int max_tiles) {
    const int64_t hi = tile * max_tiles + 1;
    return gen::weightedOneOf<int64_t>({
        {4, gen::element<int64_t>(1, 2, tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 1, 17, 31, 33)},
        {3, gen::inRange<int64_t>(1, hi + 1)},
    });
}

// The gene of a Compute with functor `fn` (Sub if the arch lacks it for the type) over the genes at `inputs`.
Gene compute_gene(ArchId arch, uint8_t dtype, Functor fn, const std::vector<int>& inputs, int pos) {
    const std::vector<DType>& ar = arithmetic_palette(arch);
    const std::vector<Functor> fns = compute_functors(arch, ar[dtype % ar.size()]);
    Gene g = make_gene(GeneOp::Compute);
    g.dtype = dtype;
    auto at = std::find(fns.begin(), fns.end(), fn);
    if (at == fns.end()) at = std::find(fns.begin(), fns.end(), Functor::Sub);
    g.fn = static_cast<uint8_t>(at == fns.end() ? 0 : at - fns.begin());
    g.extra = static_cast<uint8_t>(inputs.size() >= 2 ? inputs.size() - 2 : 0);  // inputs beyond two
    g.scalar = static_cast<uint8_t>(*gen::inRange<int>(0, 16));
    for (int in : inputs) g.refs.push_back(static_cast<uint8_t>(pos - 1 - in));  // resolve(): pos - 1 - r
    return g;
}

// Appends the genes of a random subtree in post-order (children first) and returns its root's position:
// a multi-input Compute while `budget` lasts (always when `internal`), else a leaf.
int traversal_subtree(std::vector<Gene>& genes, ArchId arch, uint8_t dtype, bool internal, int& budget) {
    auto pos = [&] { return static_cast<int>(genes.size()); };
    if (budget > 0 && (internal || *gen::element(false, true))) {
        --budget;
        const Functor fn =
            arch == ArchId::Ascend950
                ? *gen::weightedElement<Functor>({{4, Functor::Sub},
                                                  {2, Functor::Div},
                                                  {2, Functor::Max},
                                                  {2, Functor::Min},
                                                  {1, Functor::Prelu}})
                : *gen::weightedElement<Functor>(
                      {{4, Functor::Sub}, {2, Functor::Div}, {2, Functor::Max}, {2, Functor::Min}});
        const int arity = fn == Functor::Prelu ? 2 : *gen::weightedElement<int>({{3, 2}, {1, 3}});
        std::vector<int> inputs;
        inputs.reserve(static_cast<size_t>(arity));
        for (int i = 0; i < arity; ++i)
            inputs.push_back(traversal_subtree(genes, arch, dtype, false, budget));
        genes.push_back(compute_gene(arch, dtype, fn, inputs, pos()));
        return pos() - 1;
    }
    Gene leaf = make_gene(*gen::weightedElement<GeneOp>({{3, GeneOp::AccLoad},
                                                         {4, GeneOp::AuxLoad},
                                                         {2, GeneOp::RowBroadcast},
                                                         {2, GeneOp::ColBroadcast},
                                                         {1, GeneOp::ScalarBroadcast}}));
    leaf.dtype = dtype;
    genes.push_back(leaf);
    if (*gen::weightedElement<bool>({{2, false}, {1, true}})) {  // under a scalar Compute
        const Functor fn = *gen::element(Functor::Muls, Functor::Adds, Functor::Maxs, Functor::Mins);
        genes.push_back(compute_gene(arch, dtype, fn, {pos() - 1}, pos()));
    }
    return pos() - 1;
}

Spec raw_spec(const GenConfig& cfg) {
    Spec s;
    s.arch = cfg.both_archs ? *gen::element(ArchId::AtlasA2, ArchId::Ascend950) : ArchId::AtlasA2;
    s.ub_path = s.arch == ArchId::Ascend950 && *gen::weightedElement<bool>({{3, false}, {2, true}});
    s.arch_tile = cfg.arch_tiles && *gen::weightedElement<bool>({{9, false}, {1, true}});
    const graph::TileShape t = s.arch_tile ? graph::default_tile(s.arch) : kSmallTile;
    s.m = *dim_gen(t.m, cfg.max_tiles);
    s.n = *dim_gen(t.n, cfg.max_tiles);
    if (*gen::weightedElement<bool>({{9, false}, {1, true}})) {  // no tail at all
        s.m = std::max<int64_t>(1, s.m / t.m) * t.m;
        s.n = std::max<int64_t>(1, s.n / t.n) * t.n;
    }
    s.k = *gen::element<int64_t>(1, 16, 31, 32, 33, t.k, t.k + 1);
    s.c_half = *gen::weightedElement<bool>({{3, false}, {1, true}});
    s.int8_gemm = *gen::weightedElement<bool>({{9, false}, {1, true}});
    s.cl_blocks = *gen::weightedElement<uint32_t>({{4, 0}, {2, 1}, {2, 2}, {1, 3}, {1, 4}, {1, 8}, {1, 64}});
    s.row_pad = *gen::weightedElement<uint8_t>({{3, 0}, {1, 1}, {1, 16}, {1, 31}});
    // (not inRange: it shrinks its range with rapidcheck's size, making the first cases one-node graphs)
    std::vector<int> counts;
    for (int i = 1; i <= cfg.max_genes; ++i) counts.push_back(i);
    const int genes = *gen::elementOf(counts);
    if (cfg.traversal_share > 0 &&
        *gen::weightedElement<bool>({{static_cast<std::size_t>(100 - cfg.traversal_share), false},
                                     {static_cast<std::size_t>(cfg.traversal_share), true}}))
        s.genes = traversal_genes(s.arch, *gen::weightedElement<bool>({{2, false}, {1, true}}));
    else
        for (int i = 0; i < genes; ++i) s.genes.push_back(*gene_gen());
    s.data = *gen::weightedElement<DataMode>(
        {{100 - cfg.float_share, DataMode::Exact}, {cfg.float_share, DataMode::Special}});
    s.data_seed = *gen::inRange<uint64_t>(0, 1u << 20);
    s.cores = *gen::element<uint8_t>(1, 2, 3, 4);
    s.sched_seed = *gen::weightedElement<uint64_t>({{2, 0}, {1, 1 + *gen::inRange<uint64_t>(0, 1u << 20)}});
    // Drawn last, so that every earlier field of a seed's case stays what it was before this field.
    s.signed_inputs = *gen::weightedElement<bool>({{3, false}, {1, true}});
    return s;
}

int resolve(const Gene& g, std::size_t j, int pos) {
    const int r = j < g.refs.size() ? g.refs[j] : 0;
    return pos - 1 - r % pos;
}

}  // namespace

Spec bypass_gene(const Spec& s, std::size_t i) {
    Spec out = s;
    const int ii = static_cast<int>(i);
    const int target = ii == 0 ? -1 : resolve(s.genes[i], 0, ii);
    out.genes.erase(out.genes.begin() + ii);
    for (std::size_t j = i + 1; j < s.genes.size(); ++j) {
        const int jj = static_cast<int>(j);
        Gene& g = out.genes[j - 1];
        const std::size_t slots = std::max<std::size_t>(g.refs.size(), 3);
        g.refs.resize(slots, 0);
        for (std::size_t k = 0; k < slots; ++k) {
            int t = resolve(s.genes[j], k, jj);
            if (t == ii) t = target;
            if (t > ii) --t;
            const int newpos = jj - 1;
            // a reference to a gene that no longer exists (bypassing a leaf): the previous node
            g.refs[k] = static_cast<uint8_t>(t < 0 || newpos == 0 ? 0 : newpos - 1 - t);
        }
    }
    return out;
}

Spec collapse_gene(const Spec& s, std::size_t i) {
    Spec out = s;
    // The leaf keeps the gene's dtype index; consumers of another type get their conversion from decode.
    Gene& g = out.genes[i];
    g.op = uint8_t(GeneOp::AuxLoad);
    g.refs.clear();
    g.strided = false;
    return out;
}

std::vector<Spec> shrink_candidates(const Spec& s) {
    std::vector<Spec> out;
    auto add = [&](Spec c) {
        if (!(c == s)) out.push_back(std::move(c));
    };
    const std::size_t n = s.genes.size();
    // Structure first: fewer nodes make every later step cheaper.
    if (n > 1) {
        Spec half = s;
        half.genes.erase(half.genes.begin(), half.genes.begin() + static_cast<std::ptrdiff_t>(n / 2));
        add(half);
    }
    for (std::size_t i = n; i-- > 0;)
        if (n > 1) add(bypass_gene(s, i));
    for (std::size_t i = 0; i + 1 < n; ++i) {
        Spec c = s;
        c.genes.erase(c.genes.begin() + static_cast<std::ptrdiff_t>(i));
        add(c);
    }
    for (std::size_t i = 0; i < n; ++i) {
        const auto op = static_cast<GeneOp>(s.genes[i].op % kGeneOps);
        if (op != GeneOp::AuxLoad && op != GeneOp::AccLoad) add(collapse_gene(s, i));
    }
    // Run conditions.
    if (s.cores > 1) {
        Spec c = s;
        c.cores = 1;
        add(c);
    }
    if (s.sched_seed != 0) {
        Spec c = s;
        c.sched_seed = 0;
        add(c);
    }
    if (s.data != DataMode::Exact) {
        Spec c = s;
        c.data = DataMode::Exact;
        add(c);
    }
    if (s.signed_inputs) {
        Spec c = s;
        c.signed_inputs = false;
        add(c);
    }
    if (s.arch_tile) {
        Spec c = s;
        c.arch_tile = false;
        add(c);
    }
    // Types and modes.
    {
        Spec c = s;
        c.c_half = false;
        c.int8_gemm = false;
        for (Gene& g : c.genes) g.dtype = 0;
        add(c);
    }
    {
        Spec c = s;
        for (Gene& g : c.genes) g.round = 0;
        add(c);
    }
    // Shapes: halve, snap to tile multiples (a tile, when smaller than one), then by one.
    const graph::TileShape t = s.arch_tile ? graph::default_tile(s.arch) : kSmallTile;
    auto shapes = [&](int64_t Spec::*dim, int64_t tile) {
        const int64_t v = s.*dim;
        if (v > 1) {
            Spec c = s;
            c.*dim = v / 2;
            add(c);
        }
        if (v % tile != 0 && v > tile) {
            Spec c = s;
            c.*dim = v / tile * tile;
            add(c);
        }
        if (v > 1) {
            Spec c = s;
            c.*dim = v - 1;
            add(c);
        }
    };
    shapes(&Spec::m, t.m);
    shapes(&Spec::n, t.n);
    shapes(&Spec::k, t.k);
    if (s.ub_path) {
        Spec c = s;
        c.ub_path = false;
        add(c);
    }
    if (s.row_pad != 0) {
        Spec c = s;
        c.row_pad = 0;
        add(c);
    }
    if (s.cl_blocks != 0) {
        Spec c = s;
        c.cl_blocks = 0;
        add(c);
    }
    if (s.arch != ArchId::AtlasA2) {
        Spec c = s;
        c.arch = ArchId::AtlasA2;
        c.ub_path = false;
        add(c);
    }
    if (s.data_seed != 0) {
        Spec c = s;
        c.data_seed = 0;
        add(c);
    }
    // Each gene's fields towards 0.
    for (std::size_t i = 0; i < n; ++i) {
        const Gene& g = s.genes[i];
        auto field = [&](auto Gene::*f) {
            if (g.*f != decltype(g.*f){}) {
                Spec c = s;
                c.genes[i].*f = {};
                add(c);
            }
        };
        field(&Gene::op);
        field(&Gene::dtype);
        field(&Gene::fn);
        field(&Gene::round);
        field(&Gene::extra);
        field(&Gene::scalar);
        field(&Gene::strided);
        for (std::size_t k = 0; k < g.refs.size(); ++k)
            if (g.refs[k] != 0) {
                Spec c = s;
                c.genes[i].refs[k] = 0;
                add(c);
            }
    }
    return out;
}

std::vector<Gene> traversal_genes(ArchId arch, bool dag) {
    const uint8_t dtype = *gen::weightedElement<uint8_t>({{3, 0}, {1, 1}});  // float or half
    int budget = *gen::element(1, 2, 3);                                     // multi-input Computes
    std::vector<Gene> genes;
    const int root = traversal_subtree(genes, arch, dtype, true, budget);
    if (dag) {  // Sub(root, S), S the root's first input
        const Gene& r = genes[static_cast<std::size_t>(root)];
        const int shared = root - 1 - r.refs[0];
        genes.push_back(compute_gene(arch, dtype, Functor::Sub, {root, shared}, root + 1));
    }
    return genes;
}

rc::Gen<Spec> spec_gen(const GenConfig& cfg) {
    return rc::Gen<Spec>([cfg](const rc::Random& random, int size) {
        const Spec s = gen::exec([cfg] { return raw_spec(cfg); })(random, size).value();
        return rc::shrinkable::shrinkRecur(
            s, [](const Spec& v) { return rc::seq::fromContainer(shrink_candidates(v)); });
    });
}

rc::Gen<Case> case_gen(const GenConfig& cfg) {
    return gen::map(spec_gen(cfg), [](const Spec& s) { return decode(s); });
}

}  // namespace evg::props
