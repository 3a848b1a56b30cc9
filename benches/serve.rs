//! A workbench reroll end to end through the router (query parsed, scenario generated, the edit
//! history replayed, every sheet and the booklet rendered, the page's JSON written), as the page
//! asks for it after a click. `cargo bench --bench serve`; the figure is recorded in the README.

use axum::body::Body;
use axum::http::Request;
use criterion::{Criterion, criterion_group, criterion_main};
use dungeonsmith::tables::Tables;
use tower::ServiceExt;

fn bench(c: &mut Criterion) {
    let router = dungeonsmith::serve::router(Tables::embedded().expect("embedded tables load")).expect("router");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let ask = |uri: &'static str| {
        let router = router.clone();
        runtime.block_on(async move {
            let res = router
                .oneshot(Request::get(uri).header("host", "127.0.0.1").body(Body::empty()).unwrap())
                .await
                .unwrap();
            assert!(res.status().is_success(), "{uri}: {}", res.status());
            axum::body::to_bytes(res.into_body(), usize::MAX).await.unwrap()
        })
    };
    c.bench_function("serve: reroll a MYK room (page JSON)", |b| {
        b.iter(|| std::hint::black_box(ask("/api/scenario?game=myk&seed=42&op=reroll:map1/B2")))
    });
    c.bench_function("serve: reroll an NW3 area (page JSON)", |b| {
        b.iter(|| std::hint::black_box(ask("/api/scenario?game=fortress&seed=42&op=reroll:area3")))
    });
    c.bench_function("serve: a fresh MYK scenario (page JSON)", |b| {
        b.iter(|| std::hint::black_box(ask("/api/scenario?game=myk&seed=42")))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
