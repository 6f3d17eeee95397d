//! Links the addon against Node's N-API symbols (napi-build).

fn main() {
    napi_build::setup();
}
