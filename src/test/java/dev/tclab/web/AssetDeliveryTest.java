package dev.tclab.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.FakeRuntimeProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.config.DecoderConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Pages link their scripts and styles by content-versioned URLs, cached for a year as immutable; the same files
 * without that version must be revalidated; text goes gzip-compressed, the bundle brotli-compressed where accepted.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class AssetDeliveryTest {

    private static final Pattern ASSET =
            Pattern.compile("(?:src|href)=\"(/(?:app|css|js)/[\\w.-]+)\\?v=([0-9a-f]{12})\"");

    private static List<String[]> assetsOf(String html) {
        List<String[]> assets = new ArrayList<>();
        Matcher m = ASSET.matcher(html);
        while (m.find()) {
            assets.add(new String[] {m.group(1), m.group(2)});
        }
        return assets;
    }

    @Test
    void shouldLinkVersionedAssetsCachedAsImmutableAndRevalidateUnversionedOnes() {
        String lesson = given().get("/lessons/web-test")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        List<String[]> assets = assetsOf(lesson);
        assertThat(assets).extracting(a -> a[0]).contains("/css/tclab.css", "/app/lab.js", "/app/lab.css");
        assertThat(lesson).doesNotContain("src=\"/app/lab.js\"");
        for (String[] asset : assets) {
            given().get(asset[0] + "?v=" + asset[1])
                    .then()
                    .statusCode(200)
                    .header("Cache-Control", "public, max-age=31536000, immutable");
            given().get(asset[0]).then().statusCode(200).header("Cache-Control", "no-cache");
            given().get(asset[0] + "?v=000000000000").then().statusCode(200).header("Cache-Control", "no-cache");
        }
        String catalog = given().get("/").then().statusCode(200).extract().asString();
        assertThat(assetsOf(catalog)).extracting(a -> a[0]).contains("/css/tclab.css", "/app/catalog.js");
    }

    /** Brotli where the browser accepts it: the build's .br copy, which decodes (with node's zlib) to the bundle. */
    @Test
    void shouldSendTheBundleBrotliCompressedToBrowsersThatAcceptIt() throws Exception {
        RestAssuredConfig raw = RestAssuredConfig.config()
                .decoderConfig(DecoderConfig.decoderConfig().noContentDecoders());
        for (String asset : List.of("/app/lab.js", "/app/lab.css", "/app/catalog.js")) {
            byte[] plain = given().get(asset).then().statusCode(200).extract().asByteArray();
            Response gzip =
                    given().config(raw).header("Accept-Encoding", "gzip").get(asset);
            Response br = given().config(raw)
                    .header("Accept-Encoding", "gzip, deflate, br")
                    .get(asset);
            assertThat(br.statusCode()).isEqualTo(200);
            assertThat(br.header("Content-Encoding")).as(asset).isEqualTo("br");
            assertThat(br.header("Vary")).containsIgnoringCase("Accept-Encoding");
            assertThat(br.contentType()).startsWith(asset.endsWith(".css") ? "text/css" : "text/javascript");
            assertThat(br.asByteArray().length)
                    .as(asset + " brotli beside gzip")
                    .isLessThan(gzip.asByteArray().length);
            assertThat(brotliDecoded(br.asByteArray()))
                    .as(asset + " decodes to the bundle")
                    .isEqualTo(plain);
            System.out.printf(
                    "%s: %d bytes, gzip %d, brotli %d%n",
                    asset, plain.length, gzip.asByteArray().length, br.asByteArray().length);

            String version = AssetVersions.version(asset).orElseThrow();
            given().config(raw)
                    .header("Accept-Encoding", "br")
                    .get(asset + "?v=" + version)
                    .then()
                    .statusCode(200)
                    .header("Content-Encoding", "br")
                    .header("Cache-Control", "public, max-age=31536000, immutable");
            given().config(raw)
                    .header("Accept-Encoding", "br")
                    .header("If-None-Match", br.header("ETag"))
                    .get(asset)
                    .then()
                    .statusCode(304);
        }
        assertThat(given().config(raw)
                        .header("Accept-Encoding", "br;q=0, gzip")
                        .get("/app/lab.js")
                        .header("Content-Encoding"))
                .isEqualTo("gzip");
    }

    private static byte[] brotliDecoded(byte[] compressed) throws Exception {
        Process node = new ProcessBuilder(
                        "node",
                        "-e",
                        "process.stdout.write(require('zlib').brotliDecompressSync(require('fs').readFileSync(0)))")
                .start();
        try (var in = node.getOutputStream()) {
            in.write(compressed);
        }
        byte[] out = node.getInputStream().readAllBytes();
        assertThat(node.waitFor())
                .as(new String(node.getErrorStream().readAllBytes()))
                .isZero();
        return out;
    }

    @Test
    void shouldCompressTheBundleAndPagesWithGzip() {
        RestAssuredConfig raw = RestAssuredConfig.config()
                .decoderConfig(DecoderConfig.decoderConfig().noContentDecoders());
        Response plain = given().get("/app/lab.js");
        Response zipped = given().config(raw).header("Accept-Encoding", "gzip").get("/app/lab.js");
        assertThat(zipped.header("Content-Encoding")).isEqualTo("gzip");
        assertThat(zipped.asByteArray().length).as("gzipped bundle").isLessThan(plain.asByteArray().length / 2);
        assertThat(given().config(raw)
                        .header("Accept-Encoding", "gzip")
                        .get("/lessons/web-test")
                        .header("Content-Encoding"))
                .isEqualTo("gzip");
    }
}
