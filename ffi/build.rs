//! A SONAME for libarbiter.so: without one, programs linked against it record the path it was
//! built at instead of the library's name.

fn main() {
    // Not the C side under ffi/c: editing it must not relink the library.
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libarbiter.so");
    }
}
