import ConfinedFiles
import Foundation

/// Reads an image file straight into `[UInt8]`: the size is checked against the limit before
/// anything is allocated. The file comes open, from a confined folder (or `TrustedFiles`).
public enum ImageFile {
    public static func read(_ file: OpenFile, limits: ImageLimits = .standard) throws(ImagingError) -> [UInt8] {
        try limits.checkFileSize(file.size)
        guard let bytes = file.readAll(limit: file.size) else { throw .unreadable(file.name) }
        return bytes
    }
}
