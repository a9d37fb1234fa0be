// The Android library of the mrtr Kotlin binding (dev.mrtr), built on its own:
//   cd bindings/kotlin && gradle assembleRelease
// or included from an app's settings.gradle.kts:
//   includeBuild("path/to/mrtr/bindings/kotlin")
// Needs the Android SDK + NDK (CMake 3.18+) and a Rust toolchain with the
// Android targets (rustup target add aarch64-linux-android
// armv7-linux-androideabi x86_64-linux-android i686-linux-android).
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}

dependencyResolutionManagement {
    repositories {
        google()
        mavenCentral()
    }
}

rootProject.name = "mrtr"
