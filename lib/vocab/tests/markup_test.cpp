#include "evg/markup.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "evg/json_field.hpp"

namespace {

TEST(Markup, XmlEscapeWritesTheFiveEntities) {
    EXPECT_EQ(evg::xml_escape(R"(SetFlag<MTE2_V>(0) & "a" 'b')"),
              "SetFlag&lt;MTE2_V&gt;(0) &amp; &quot;a&quot; &apos;b&apos;");
}

TEST(Markup, XmlEscapeKeepsLineBreaksAndTabsAndBlanksOtherControlCharacters) {
    EXPECT_EQ(evg::xml_escape(std::string("a\tb\nc\rd\x01"
                                          "e\x1f",
                                          10)),
              "a\tb\nc\rd e ");
}

TEST(Markup, JsonFieldNamesTheDocumentTheObjectAndTheField) {
    const nlohmann::json j = {{"seed", 7}, {"name", "x"}};
    EXPECT_EQ(evg::json_field<int>(j, "seed", "the top", "doc"), 7);
    try {
        (void)evg::json_field<int>(j, "shard", "the top", "check report JSON");
        FAIL() << "a missing field was read";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "check report JSON: the top has no field 'shard'");
    }
    try {
        (void)evg::json_field<int>(j, "name", "graph 3", "doc");
        FAIL() << "a string was read as a number";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("doc: field 'name' of graph 3: "), std::string::npos)
            << e.what();
    }
}

}  // namespace
