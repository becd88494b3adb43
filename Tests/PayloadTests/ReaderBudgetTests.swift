import Checked
import Foundation
import Payload
import Testing
import Formats

/// One budget type for every reader: the same error words for nesting and size whichever format
/// went too deep, each at its file and position.
struct ReaderBudgetTests {
    @Test func budgetCountsAndRefuses() throws {
        var budget = InputBudget(maxDepth: 2, maxSize: 3, unit: "values")
        try budget.enter()
        try budget.enter()
        func refusal(_ step: (inout InputBudget) throws -> Void) -> InputBudget.Exceeded? {
            do { try step(&budget); return nil } catch { return error as? InputBudget.Exceeded }
        }
        #expect(refusal { try $0.enter() } == InputBudget.Exceeded(limit: .depth, maximum: 2, unit: "values"))
        budget.leave()
        #expect(budget.depth == 1 && budget.deepest == 2)
        #expect(refusal { try $0.count(3) } == nil)
        #expect(refusal { try $0.count() } == InputBudget.Exceeded(limit: .size, maximum: 3, unit: "values"))
        #expect("\(InputBudget.Exceeded(limit: .size, maximum: 3, unit: "values"))" == "more than 3 values")
        #expect("\(InputBudget.Exceeded(limit: .depth, maximum: 64, unit: "values"))" == "nested deeper than 64 levels")
        var big = InputBudget(maxDepth: 1, maxSize: .max)
        try big.count(.max - 1)
        #expect(big.take(1) && !big.take(1))
        // Counting past Int.max saturates: an error, never an overflow trap.
        var small = InputBudget(maxDepth: 1, maxSize: 10)
        try small.count(5)
        #expect(throws: InputBudget.Exceeded.self) { try small.count(.max) }
        #expect(small.size == .max)
    }

    @Test func deepOpenStepPropertyList() {
        // 100,000 nested arrays and dictionaries, as a hostile project.pbxproj: one error at the line.
        for text in ["// !$*UTF8*$!\n" + String(repeating: "(", count: 100_000), "{\n" + String(repeating: "a = {", count: 100_000)] {
            #expect {
                _ = try PropertyList.read(Array(text.utf8), file: "project.pbxproj")
            } throws: { error in
                "\(error)".hasPrefix("project.pbxproj: line 2, column ") && "\(error)".hasSuffix(": nested deeper than 64 levels")
            }
        }
    }

    @Test func deepJSONAndXMLPropertyList() {
        #expect {
            _ = try JSONParser.parse(Array(("\n" + String(repeating: "[", count: 100_000)).utf8), file: "deep.json")
        } throws: { "\($0)" == "deep.json:2:65: nested deeper than 64 levels" }
        let xml = "<?xml version=\"1.0\"?><plist version=\"1.0\">\n" + String(repeating: "<array>", count: 100) + String(repeating: "</array>", count: 100) + "</plist>"
        #expect {
            _ = try PropertyList.read(Array(xml.utf8), file: "Info.plist")
        } throws: { "\($0)".hasPrefix("Info.plist: line 2") && "\($0)".hasSuffix("nested deeper than 64 levels") }
    }
}
