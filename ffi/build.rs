//! A versioned SONAME for libarbiter.so: without one, programs linked against it record the path
//! it was built at instead of the library's name; with the major version in it, a program built
//! against one ABI never loads another.

fn main() {
    // Not the C side under ffi/c: editing it must not relink the library.
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libarbiter.so.{major}");
    }
}
