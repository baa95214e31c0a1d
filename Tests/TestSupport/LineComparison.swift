import XCTest

/// Fails the test when `got` is not `expected`, with the whole unified diff (``UnifiedDiff``, expected as
/// the old side) in the message: every difference at once, as a patch from what was to what is.
public func assertSameLines(
    _ got: [String], _ expected: [String], expectedName: String, gotName: String, _ advice: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    let diff = UnifiedDiff.text(old: expected, new: got, oldName: expectedName, newName: gotName)
    guard !diff.isEmpty else { return }
    XCTFail("\(gotName) differs from \(expectedName)\(advice.isEmpty ? "" : ": " + advice):\n" + diff, file: file, line: line)
}
