import Foundation
import FuzzTargets

// One libFuzzer executable; FUZZ_TARGET (json, payload, plist, strings, mustache, css, html,
// layout, image, media, yaml, storyboard, objc, xcconfig) picks what each input is fed to
// (FuzzTargets.swift in the main package).
let target: @Sendable ([UInt8]) -> Void = {
    let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTargets.all[name] else { fatalError("set FUZZ_TARGET to one of \(FuzzTargets.all.keys.sorted())") }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    target(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
