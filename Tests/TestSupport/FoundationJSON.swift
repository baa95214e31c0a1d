import Foundation

/// Foundation's parser, as a second opinion on what the project's own JSON parser and writers do.
public func foundationJSON(_ bytes: [UInt8]) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
}
