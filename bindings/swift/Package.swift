// swift-tools-version:5.9
//
// mrtr for Swift: the C module `CMrtr` over the repository's include/mrtr.h and
// libmrtr, and the Swift API `Mrtr` on top (no protocol logic: every rule stays
// in the Rust core behind the C ABI).
//
// Two ways to get libmrtr:
//   - Apple platforms, for distribution: `scripts/build-xcframework` (macOS only)
//     writes bindings/swift/CMrtr.xcframework (iOS device, iOS simulator, macOS
//     static libraries + headers + module map); when it exists this package uses
//     it as a binary target.
//   - Development on any host: `cargo build -p mrtr-ffi --release` at the root;
//     the package links ../../target/release/libmrtr.a (override the directory
//     with MRTR_LIB_DIR). This path uses unsafeFlags, so such a checkout can be a
//     root package but not a dependency of another package: use the XCFramework
//     for that.
import Foundation
import PackageDescription

let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let xcframework = here.appendingPathComponent("CMrtr.xcframework")
let libDir = ProcessInfo.processInfo.environment["MRTR_LIB_DIR"]
    ?? here.appendingPathComponent("../../target/release").standardizedFileURL.path

let cModule: Target = FileManager.default.fileExists(atPath: xcframework.path)
    ? .binaryTarget(name: "CMrtr", path: "CMrtr.xcframework")
    : .target(
        name: "CMrtr",
        path: "Sources/CMrtr",
        linkerSettings: [.unsafeFlags(["-L", libDir])]
    )

let package = Package(
    name: "Mrtr",
    platforms: [.macOS(.v12), .iOS(.v15)],
    products: [
        .library(name: "Mrtr", targets: ["Mrtr"]),
    ],
    targets: [
        cModule,
        .target(name: "Mrtr", dependencies: ["CMrtr"], path: "Sources/Mrtr"),
        .testTarget(
            name: "MrtrTests",
            dependencies: ["Mrtr"],
            path: "Tests/MrtrTests",
            resources: []
        ),
    ]
)
