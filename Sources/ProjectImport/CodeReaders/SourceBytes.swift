/// What the Swift and Objective-C readers share about a file's bytes.
enum SourceBytes {
    /// A letter, `_`, `$` or a non-ASCII byte: what may start an identifier.
    static func startsIdentifier(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x24 || b >= 0x80 }
    /// What may continue one: also a digit.
    static func continuesIdentifier(_ b: UInt8) -> Bool { startsIdentifier(b) || (b >= 0x30 && b <= 0x39) }

    /// Byte offsets to lines and columns.
    struct Lines {
        private var starts: [Int] = [0]

        init(_ bytes: [UInt8]) {
            for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
        }

        /// The 1-based line and column (in bytes, as compilers count them) of `offset`.
        func site(_ offset: Int, file: String) -> CodeSite {
            var lo = 0, hi = starts.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
            }
            return CodeSite(file: file, line: lo + 1, column: offset - starts[lo] + 1)
        }
    }
}

extension [UInt8] {
    /// Whether `word` occurs as a whole identifier.
    func contains(word: String) -> Bool {
        let w = Array(word.utf8)
        guard let first = w.first, w.count <= count else { return false }
        var i = 0
        while i + w.count <= count {
            if self[i] == first, self[i..<(i + w.count)].elementsEqual(w),
               i == 0 || !SourceBytes.continuesIdentifier(self[i - 1]), i + w.count == count || !SourceBytes.continuesIdentifier(self[i + w.count]) { return true }
            i += 1
        }
        return false
    }

    /// The index where `needle` next occurs at or after `from`.
    func firstRange(of needle: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, count >= needle.count, from <= count - needle.count else { return nil }
        var i = from
        while i <= count - needle.count {
            if self[i] == needle[0], self[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
