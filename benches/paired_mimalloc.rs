//! The timing server of `benches/paired.rs`, built with mimalloc as the program's global
//! allocator instead of the system one. Everything else (requests, answers, what one response
//! includes) is that program's; see its documentation.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "paired.rs"]
mod paired;

fn main() {
    paired::main();
}
