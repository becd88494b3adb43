import Foundation

public enum Constants {
    public static let bundleId = "com.example.driftwood"
    public static let organizationName = "Driftwood Labs"
}
