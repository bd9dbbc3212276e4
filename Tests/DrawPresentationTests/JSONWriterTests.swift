@testable import DrawPresentation
import Testing

struct JSONWriterTests {
    @Test func nestedStructuresGetCommasRight() {
        var w = JSONWriter()
        w.beginObject()
        w.field("a", 1)
        w.key("b"); w.beginArray(); w.int(1); w.beginObject(); w.field("c", true); w.endObject(); w.null(); w.endArray()
        w.key("d"); w.beginObject(); w.endObject()
        w.field("e", "x")
        w.endObject()
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"a":1,"b":[1,{"c":true},null],"d":{},"e":"x"}"#)
    }

    @Test(arguments: [
        (0.0, "0.000"), (1.5, "1.500"), (1732262400001.2, "1732262400001.200"),
        (12.0004, "12.000"), (12.0006, "12.001"), (0.05, "0.050"), (-1.25, "-1.250"),
    ])
    func millisHaveThreeDecimalsAndNoExponent(_ value: Double, _ expected: String) {
        var w = JSONWriter()
        w.millis(value)
        #expect(String(decoding: w.bytes, as: UTF8.self) == expected)
    }
}
