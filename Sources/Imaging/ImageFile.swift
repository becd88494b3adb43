import Foundation

/// Reads a file straight into `[UInt8]`: the size is checked against the limit before anything
/// is allocated, and the bytes are held once (not as `Data` and again as an array).
public enum ImageFile {
    public static func read(_ path: String, limits: ImageLimits = .standard) throws(ImagingError) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw .unreadable(path) }
        defer { fclose(file) }
        guard fseek(file, 0, SEEK_END) == 0 else { throw .unreadable(path) }
        let size = ftell(file)
        guard size >= 0, fseek(file, 0, SEEK_SET) == 0 else { throw .unreadable(path) }
        try limits.checkFileSize(size)
        var bytes = [UInt8](repeating: 0, count: size)
        let read = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, size, file) }
        guard read == size else { throw .unreadable(path) }
        return bytes
    }
}
