/// The type of value the code reads a userInfo key as, for a sample payload that holds one of it.
public enum UserInfoType: String, Sendable, Equatable {
    case string, number, bool, object, array, url

    /// The type the text right after a read of `"KEY"]` (or of another of the key's `spellings`,
    /// `Keys.recipe]`) casts or converts it to: `["n"] as? Int`, `(userInfo["n"] as? NSNumber)?.intValue`,
    /// `[userInfo[@"n"] boolValue]`. A parse-only AST keeps no cast's type, so the text is read;
    /// the first read that says a type wins.
    static func read(spellings: [String], in sources: [[UInt8]]) -> UserInfoType? {
        for spelling in spellings {
            if let type = read(spelling: Array(spelling.utf8), in: sources) { return type }
        }
        return nil
    }

    private static func read(spelling quoted: [UInt8], in sources: [[UInt8]]) -> UserInfoType? {
        for bytes in sources {
            var from = 0
            while let at = bytes.firstRange(of: quoted, from: from) {
                from = at + quoted.count
                // A constant's name is whole: `Keys.recipe`, not `OtherKeys.recipe`.
                if at > 0, SourceBytes.continuesIdentifier(bytes[at - 1]) { continue }
                var i = from
                func skip(_ set: String) { while i < bytes.count, set.utf8.contains(bytes[i]) { i += 1 } }
                skip(" \t")
                guard i < bytes.count, bytes[i] == UInt8(ascii: "]") else { continue }
                i += 1
                skip(" \t\n)?!")
                let word = identifier(bytes, &i)
                if word == "as" {
                    skip("?! \t")
                    if i < bytes.count, bytes[i] == UInt8(ascii: "[") {
                        let end = bytes[i...].firstIndex(of: UInt8(ascii: "]")) ?? bytes.count
                        return bytes[i..<end].contains(UInt8(ascii: ":")) ? .object : .array
                    }
                    if let t = castTypes[identifier(bytes, &i)] { return t }
                } else if let t = conversions[word] {
                    return t
                } else if word.isEmpty, i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                    i += 1
                    if let t = conversions[identifier(bytes, &i)] { return t }
                }
            }
        }
        return nil
    }

    static let castTypes: [String: UserInfoType] = [
        "String": .string, "NSString": .string, "Substring": .string,
        "Int": .number, "Int64": .number, "Int32": .number, "UInt": .number, "Double": .number, "Float": .number,
        "CGFloat": .number, "NSNumber": .number, "TimeInterval": .number, "Decimal": .number,
        "Bool": .bool, "NSDictionary": .object, "Dictionary": .object, "NSArray": .array, "Array": .array,
    ]
    /// `.intValue`, `[x boolValue]`: NSNumber's and NSString's conversions.
    static let conversions: [String: UserInfoType] = [
        "intValue": .number, "integerValue": .number, "doubleValue": .number, "floatValue": .number, "longLongValue": .number,
        "unsignedIntegerValue": .number, "int64Value": .number, "boolValue": .bool, "stringValue": .string,
    ]

    private static func identifier(_ bytes: [UInt8], _ i: inout Int) -> String {
        let start = i
        while i < bytes.count, SourceBytes.continuesIdentifier(bytes[i]) { i += 1 }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }
}
