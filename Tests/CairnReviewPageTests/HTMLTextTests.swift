import CairnReviewPage
import Testing

struct HTMLTextTests {
  @Test func escapesWhatCanEndTextOrAnAttribute() {
    #expect(
      HTMLText.escape(#"<img src=x onerror="alert(1)">&'.jpg"#)
        == "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;.jpg")
    #expect(HTMLText.escape("Strand 2024 ☀︎.heic") == "Strand 2024 ☀︎.heic")
  }

  @Test func onlyUUIDsAreAssetIds() {
    #expect(HTMLText.isAssetId("6f1c2f4e-8a51-4c77-9d3e-1b2a3c4d5e6f"))
    #expect(!HTMLText.isAssetId("6f1c2f4e-8a51-4c77-9d3e-1b2a3c4d5e6f; rm -rf ~"))
    #expect(!HTMLText.isAssetId("$(touch x)-8a51-4c77-9d3e-1b2a3c4d5e6f"))
  }

  @Test func linksOnlyToHTTPServers() {
    #expect(
      HTMLText.webBase(apiBase: "https://photos.example.net/api") == "https://photos.example.net")
    #expect(
      HTMLText.webBase(apiBase: "http://127.0.0.1:2283/immich/api/")
        == "http://127.0.0.1:2283/immich")
    #expect(HTMLText.webBase(apiBase: "javascript:alert(1)//api") == nil)
    #expect(HTMLText.webBase(apiBase: "https://x\" onclick=\"y/api") == nil)
  }
}
