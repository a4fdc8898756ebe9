import Testing
import Foundation
@testable import MotusClassifier

/// Model files that are not JSON: the error says where (line and column), what was there and
/// what was expected (#18), on one line.
@Suite struct ModelFileSyntaxTests {
    static func message(_ text: String) -> String? {
        do { _ = try MotionModel.decode(Data(text.utf8), source: "m.json"); return nil } catch { return error.description }
    }

    @Test(arguments: [
        ("{\n  \"format\": \"motus-model\",\n  \"version\": 1,\n}", "m.json:4:1: found '}', expected a member name in double quotes (a model file is JSON)"),
        ("{\"format\" \"motus-model\"}", "m.json:1:11: found '\"motus-model\"}', expected ':' after the member name (a model file is JSON)"),
        ("{\"a\": [1, 2,, 3]}", "m.json:1:13: found ', 3]}', expected a JSON value (object, array, string, number, true, false or null) (a model file is JSON)"),
        ("{\"a\": 01}", "m.json:1:8: found '1}', expected ',' or '}' after a member (a model file is JSON)"),
        ("{\"a\": 1.}", "m.json:1:9: found '}', expected digits after the decimal point (a model file is JSON)"),
        ("{\"a\": tru}", "m.json:1:7: found 'tru}', expected a JSON value (true?) (a model file is JSON)"),
        ("{\"a\": \"x\ny\"}", "m.json:1:9: found '\\u{A}', expected no control character inside a string (write \\n, \\t …) (a model file is JSON)"),
        ("{\"a\": 1", "m.json:1:8: found the end of the file, expected ',' or '}' after a member (a model file is JSON)"),
        ("{} x", "m.json:1:4: found 'x', expected nothing after the JSON value (a model file is JSON)"),
        ("", "m.json: found an empty file, expected a model file (JSON) written by `motus train`"),
    ])
    func syntaxErrorsHaveAPlace(text: String, expected: String) {
        #expect(Self.message(text) == expected)
    }

    /// Nesting deeper than the limit is reported, not followed.
    @Test func deepNestingIsBounded() {
        let deep = String(repeating: "[", count: 100_000)
        let p = JSONSyntax.firstProblem(Array(deep.utf8))
        #expect(p == JSONSyntax.Problem(line: 1, column: JSONSyntax.maxDepth + 1, found: String(repeating: "[", count: 20),
                                        expected: "objects and arrays nested at most \(JSONSyntax.maxDepth) deep"))
    }

    /// Valid JSON has no problem (the shipped model, and small documents).
    @Test func validJSONHasNoProblem() {
        #expect(JSONSyntax.firstProblem(Array(shippedMovingStillJSON.utf8)) == nil)
        for ok in ["{}", "[]", " {\"a\": [1, -2.5e-3, true, false, null, \"\\u00e9\\n\"]} ", "0", "\"s\""] {
            #expect(JSONSyntax.firstProblem(Array(ok.utf8)) == nil, "\(ok)")
        }
    }
}
