//! The service given a `www` folder (`serve --www DIR`) serves what is in DIR and nothing else, as a CDN would:
//! no file outside it through a link, no dotfile or dot-folder, a folder's
//! redirect that stays on this host; and every answer, API or file, says
//! `X-Content-Type-Options: nosniff`.

mod support;

use std::os::unix::fs::symlink;

use reqwest::redirect::Policy;
use reqwest::{Client, Url};
use support::*;

#[tokio::test]
async fn serves_only_the_folders_own_files() {
    let files = ServiceFiles::new("www", "{}");
    let www = files.dir.join("www");
    let outside = files.dir.join("outside");
    for dir in [&www.join("sub"), &www.join(".git"), &outside] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(www.join("index.html"), "home").unwrap();
    std::fs::write(www.join("sub/index.html"), "sub").unwrap();
    std::fs::write(www.join("sub/.hidden"), "hidden").unwrap();
    std::fs::write(www.join(".env"), "SECRET=1").unwrap();
    std::fs::write(www.join(".git/config"), "[core]").unwrap();
    std::fs::write(outside.join("secret.txt"), "secret").unwrap();
    std::fs::write(outside.join("index.html"), "outside").unwrap();
    // Links out of the folder, and links that stay inside it.
    symlink(&outside, www.join("shared")).unwrap();
    symlink(outside.join("secret.txt"), www.join("secret.txt")).unwrap();
    std::fs::create_dir_all(www.join("lured")).unwrap();
    symlink(outside.join("index.html"), www.join("lured/index.html")).unwrap();
    symlink(www.join("sub"), www.join("alias")).unwrap();
    symlink("../index.html", www.join("sub/home.html")).unwrap();
    let mut config = files.config();
    config.www = Some(www.clone());
    let service = Service::start(config).await;
    let client = Client::builder().redirect(Policy::none()).build().unwrap();
    let get = |path: &str| {
        let request = client.get(format!("{}{path}", service.url));
        async move { request.send().await.unwrap() }
    };
    for (path, status, body) in [
        ("/", 200, "home"),
        ("/sub/", 200, "sub"),
        ("/alias/index.html", 200, "sub"),
        ("/sub/home.html", 200, "home"),
        ("/shared/secret.txt", 404, ""),
        ("/secret.txt", 404, ""),
        ("/lured/", 404, ""),
        ("/.env", 404, ""),
        ("/%2eenv", 404, ""),
        ("/.git/config", 404, ""),
        ("/%2Egit/config", 404, ""),
        ("/sub/.hidden", 404, ""),
        ("/sub/%2ehidden", 404, ""),
    ] {
        let response = get(path).await;
        assert_eq!(response.status(), status, "{path}");
        assert_eq!(
            response.headers()["x-content-type-options"],
            "nosniff",
            "{path}"
        );
        assert_eq!(response.text().await.unwrap(), body, "{path}");
    }
    // The package's files stay readable from any origin.
    assert_eq!(get("/").await.headers()["access-control-allow-origin"], "*");
    // A folder's redirect stays on this host, however the path is written.
    for path in ["/sub", "//sub", "///sub", "/alias"] {
        let response = get(path).await;
        assert!(
            response.status().is_redirection(),
            "{path}: {}",
            response.status()
        );
        let location = response.headers()["location"].to_str().unwrap();
        let asked = Url::parse(&format!("{}{path}", service.url)).unwrap();
        let target = asked.join(location).unwrap();
        assert_eq!(target.origin(), asked.origin(), "{path} → {location}");
        assert_eq!(target.path(), format!("{path}/"), "{path} → {location}");
    }
}

#[tokio::test]
async fn every_answer_says_nosniff() {
    let files = ServiceFiles::new("nosniff", "{}");
    let service = Service::start(files.config()).await;
    let unlisted = format!("/v0/verdict?chain={CHAIN}&payTo={PAY_TO}&resourceUrl=r");
    for (path, status) in [
        ("/v0/verification-keys", 200),
        (unlisted.as_str(), 404),
        ("/v0/verdict?chain=base", 400),
        ("/v0/metrics", 404),
        ("/nothing-here", 404),
    ] {
        let response = reqwest::get(format!("{}{path}", service.url))
            .await
            .unwrap();
        assert_eq!(response.status(), status, "{path}");
        assert_eq!(
            response
                .headers()
                .get("x-content-type-options")
                .map(|v| v.to_str().unwrap()),
            Some("nosniff"),
            "{path}"
        );
    }
}
