public struct TideTable {
    public var heights: [Double] = []
}
