import CShim

// Conversions shared by the three thin codec wrappers (JPEG, PNG, GIF).

extension ImageLimits {
    var shim: shim_limits {
        shim_limits(max_width: UInt32(clamping: maxWidth), max_height: UInt32(clamping: maxHeight),
                    max_pixels: UInt64(maxPixels), max_memory: UInt64(maxDecoderMemory),
                    max_scans: Int32(maxProgressiveScans), strict: strict ? 1 : 0)
    }

    /// Refuses a file before reading it whole.
    func checkFileSize(_ count: Int) throws(ImagingError) {
        if count == 0 { throw .empty }
        if count > maxFileSize { throw .overLimit("the file is \(count) bytes, over the \(maxFileSize)-byte limit") }
    }

    /// Refuses an output size before allocating it.
    func checkOutput(width: Int, height: Int) throws(ImagingError) {
        if width > maxWidth || height > maxHeight || width * height > maxPixels {
            throw .overLimit("\(width)x\(height) is over the limit of \(maxWidth)x\(maxHeight) and \(maxPixels) pixels")
        }
    }
}

extension shim_image_info {
    var message: String {
        withUnsafeBytes(of: error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// Turns a shim error into a typed error; size-limit messages become `.overLimit`.
func shimError(_ info: shim_image_info, _ format: ImageFormat) -> ImagingError {
    let message = info.message
    if message.contains("over the limit") || message.contains("exceeds user limit") { return .overLimit(message) }
    if message == "file is empty" { return .empty }
    return .corrupt(format, message.isEmpty ? "unknown error" : message)
}

/// Copies and frees a buffer the C encoders malloc'ed.
func takeShimBuffer(_ pointer: UnsafeMutablePointer<UInt8>?, _ count: Int) -> [UInt8] {
    defer { shim_free(pointer) }
    guard let pointer else { return [] }
    return Array(UnsafeBufferPointer(start: pointer, count: count))
}

func errorText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
