package io.pmedia.media;

import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.download;
import static io.pmedia.media.MediaApi.rendered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.pmedia.events.RenderInput;
import io.pmedia.events.RenderJob;
import io.pmedia.events.RenderOutcome;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.render.Likeness;
import io.pmedia.media.render.WorkDirs;
import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.SampleMedia;
import io.pmedia.media.template.Templates;
import io.pmedia.media.worker.RenderWorker;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;
import io.pmedia.testing.S3ProxyTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The chunk cache through the real workers, broker and store: {@code product-tour} (one 30 s shot with the name on
 * screen from 2 s to 5 s and the offer from 20 s to 23 s) renders its static runs and its sound once and then only
 * its personal chunks, equal to a full render frame by frame and in sound; {@code brand-story} (a static intro and
 * outro) likewise; a cold worker warms from the store, a new template version misses again, one vendor's pieces never
 * serve another.
 */
@QuarkusTest
class ChunkCacheTest {

    static final String TOUR_DATA = """
            {"personalization_fields": {"name": "Asha Menon", "offer": "20% off: [x];drawbox"}}""";

    @Inject
    MeterRegistry registry;

    @Inject
    ObjectStore store;

    @Inject
    MediaConfig config;

    @Inject
    RenderWorker worker;

    @Inject
    ObjectMapper mapper;

    private double count(String cache, String outcome) {
        var counter = registry.find("pmedia.render." + cache + ".cache").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    private static JsonPath render(UUID client, String requestId, String useCase, Map<String, Object> data) {
        JsonPath status = rendered(client, body(requestId, useCase, data));
        assertThat(status.getString("status")).as(status.prettify()).isEqualTo("SUCCESS");
        return status;
    }

    private List<String> listed(UUID client, String templateId, int version) {
        return store.list("cache/" + client + "/" + templateId + "/" + version + "/");
    }

    /** The store URL of the vendor's sample media, as {@code ./pmedia up} names it. */
    private String assets(UUID client) {
        return S3ProxyTestResource.endpoint() + "/" + store.bucket() + "/inputs/" + client + "/samples";
    }

    /** product-tour as {@code ./pmedia up} registers it, for {@code client}, its media in that vendor's inputs. */
    private JsonPath productTour(UUID client) throws Exception {
        Path media = SampleMedia.productTour().resolve("product-tour");
        String assets = assets(client);
        for (String file : List.of("background.mp4", "soundtrack.m4a")) {
            store.put("inputs/" + client + "/samples/product-tour/" + file, media.resolve(file), "video/mp4");
        }
        return MediaApi.registerTemplate(SampleMedia.sampleTemplate("product-tour", client, assets))
                .statusCode(org.hamcrest.Matchers.oneOf(200, 201)).extract().jsonPath();
    }

    @Test
    void productTourRendersItsStaticRunsAndSoundOnceThenOnlyItsPersonalChunks(@TempDir Path dir) throws Exception {
        UUID client = UUID.randomUUID();
        JsonPath template = productTour(client);
        String templateId = template.getString("template-id");
        int version = template.getInt("version");
        Map<String, Object> data = Templates.JSON.readValue(TOUR_DATA, Map.class);
        double misses = count("chunk", "miss");
        double hits = count("chunk", "hit");
        double soundMisses = count("sound", "miss");

        render(client, "tour-1", "product-tour", data);
        assertThat(count("chunk", "miss") - misses).as("0-2 s, 5-20 s, 23-30 s, first time").isEqualTo(3);
        assertThat(count("sound", "miss") - soundMisses).isEqualTo(1);
        assertThat(listed(client, templateId, version)).as("three pieces and the sound, under the vendor's prefix")
                .filteredOn(key -> !key.contains("/opening")).hasSize(4)
                .filteredOn(key -> key.endsWith(".m4a")).hasSize(1);
        assertThat(listed(client, templateId, version)).as("and the version's first render keeps its opening: a link "
                + "rendered on view plays it from its first open, before a second render of the version")
                .contains(VendorNamespace.templateOpening(client, UUID.fromString(templateId), version))
                .filteredOn(key -> key.contains("/opening-")).hasSize(3);

        // (a job can be rendered twice when the render workers' group rebalances mid-render: then it hits too;
        // what must never happen again is a miss)
        JsonPath second = render(client, "tour-2", "product-tour", data);
        assertThat(count("chunk", "hit") - hits).isGreaterThanOrEqualTo(3);
        assertThat(count("chunk", "miss") - misses).isEqualTo(3);
        assertThat(count("sound", "miss") - soundMisses).isEqualTo(1);

        // the cached opening plays at once: its first two segments (0-2 s, static; kept by tour-1's render) are
        // named by the playlist the acceptance writes, before any worker has the request, and they play
        String id = MediaApi.request(client, body("tour-opening", "product-tour", data)).statusCode(200).extract()
                .path("service-request-id");
        JsonPath accepted = MediaApi.status(client, id).statusCode(200).extract().jsonPath();
        String opening = new String(io.restassured.RestAssured.given().urlEncodingEnabled(false)
                .get(accepted.getString("stream-url")).then().statusCode(200).extract().asByteArray(),
                StandardCharsets.UTF_8);
        assertThat(accepted.getString("status")).isEqualTo("PROCESSING");
        assertThat(opening).as("the opening alone, at acceptance").contains("#EXT-X-PLAYLIST-TYPE:EVENT")
                .doesNotContain("#EXT-X-ENDLIST");
        assertThat(opening.lines().filter(line -> line.startsWith("#EXTINF"))).hasSize(2);
        List<String> openingSegments = opening.lines().filter(line -> line.startsWith("http")).toList();
        assertThat(openingSegments).as("the cached opening's own segments, in this vendor's cache").hasSize(2)
                .allSatisfy(url -> assertThat(url).contains("/cache/" + client + "/" + templateId + "/"));
        // and named as the template version's opening, by key: a link rendered on view plays it from its first open
        String named = new String(store.open(VendorNamespace.templateOpening(client, UUID.fromString(templateId),
                version)).orElseThrow().readAllBytes(), StandardCharsets.UTF_8);
        List<String> namedKeys = named.lines().filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        assertThat(namedKeys).as(named).hasSize(2);
        assertThat(openingSegments.get(0)).contains(namedKeys.get(0));
        assertThat(openingSegments.get(1)).contains(namedKeys.get(1));
        Path openingFile = dir.resolve("opening.ts");
        try (var out = Files.newOutputStream(openingFile)) {
            for (String segment : openingSegments) {
                out.write(io.restassured.RestAssured.given().urlEncodingEnabled(false).get(segment).then()
                        .statusCode(200).extract().asByteArray());
            }
        }
        assertThat(Likeness.frames(openingFile)).as("two seconds of picture").isEqualTo(60);
        JsonPath opened = MediaApi.awaitFinal(client, id);
        assertThat(opened.getString("status")).isEqualTo("SUCCESS");
        String whole = new String(io.restassured.RestAssured.given().urlEncodingEnabled(false)
                .get(opened.getString("stream-url")).then().statusCode(200).extract().asByteArray(),
                StandardCharsets.UTF_8);
        assertThat(whole.lines().filter(line -> line.startsWith("#EXTINF"))).as("and the rest after it").hasSize(30);
        Path played = dir.resolve("played.ts");
        try (var out = Files.newOutputStream(played)) {
            for (String segment : whole.lines().filter(line -> line.startsWith("http")).toList()) {
                out.write(io.restassured.RestAssured.given().urlEncodingEnabled(false).get(segment).then()
                        .statusCode(200).extract().asByteArray());
            }
        }
        assertThat(Likeness.frames(played)).as("the opening and what followed it play as one: every frame, once")
                .isEqualTo(900);
        // (a transport stream keeps the AAC encoder's priming and last frame's padding: a few 1024-sample frames)
        assertThat(Likeness.samples(played).length).as("and the sound, without a missing or repeated segment")
                .isCloseTo(30 * Likeness.RATE, within(6 * 1024));

        // a row rendered on view reaches a worker with no playlist written (no acceptance): the worker names the
        // cached opening in it at the pickup, before the row's own chunks are rendered, and continues it
        String prefix = "media/" + client + "/on-view-row/";
        RenderJob row = new RenderJob(UUID.randomUUID().toString(), "batch", null, client, UUID.fromString(templateId),
                version, mapper.readTree(SampleMedia.sampleTemplate("product-tour", client, assets(client))),
                new RenderInput(Map.of("name", "Row One", "offer", "5% off"), null, null, null, null, null), prefix,
                null);
        assertThat(worker.render(row).status()).isEqualTo(RenderOutcome.SUCCESS);
        String rowStream = new String(store.open(prefix + RenderJob.STREAM_PLAYLIST).orElseThrow().readAllBytes(),
                StandardCharsets.UTF_8);
        List<String> rowSegments = rowStream.lines().filter(line -> line.startsWith("http")).toList();
        assertThat(rowSegments).as(rowStream).hasSize(30);
        assertThat(rowSegments.subList(0, 2)).as("opened with the cached opening at the pickup")
                .allSatisfy(url -> assertThat(url).contains("/cache/" + client + "/" + templateId + "/"));
        assertThat(rowSegments.subList(2, 30)).as("then the row's own segments")
                .allSatisfy(url -> assertThat(url).contains("/" + prefix + RenderJob.STREAM_PREFIX));

        // a cold worker: nothing local, the store warms it
        WorkDirs.delete(config.workDir().resolve("chunk-cache"));
        double warm = count("chunk", "hit");
        render(client, "tour-3", "product-tour", data);
        assertThat(count("chunk", "hit") - warm).isGreaterThanOrEqualTo(3);
        assertThat(count("chunk", "miss") - misses).isEqualTo(3);

        // the cached render is the full render: every frame, the length, the sound
        Path cached = download(second.getString("video-url"), dir, "cached.mp4");
        String assets = assets(client);
        ResolvedVideo video = Templates.resolve(
                Templates.parse(SampleMedia.sampleTemplate("product-tour", client, assets)), TOUR_DATA);
        Path full = new RenderEngine(FfmpegRunner.locate(null), Fonts.DEFAULT_DIRECTORY)
                .render(video, SampleMedia.productTourAssets(assets), Files.createDirectories(dir.resolve("full")),
                        Duration.ofSeconds(240))
                .video();
        Likeness.assertSameVideo(cached, full, video, dir);

        String playlist = new String(io.restassured.RestAssured.given().urlEncodingEnabled(false)
                .get(second.getString("stream-url")).then().statusCode(200).extract().asByteArray(),
                StandardCharsets.UTF_8);
        assertThat(playlist).contains("#EXT-X-PLAYLIST-TYPE:VOD").contains("#EXT-X-ENDLIST");
        assertThat(playlist.lines().filter(line -> line.startsWith("#EXTINF"))).as("1 s segments").hasSize(30);
    }

    @Test
    void brandStoryReusesItsIntroAndOutroAndAnotherVendorNeverGetsThem(@TempDir Path dir) throws Exception {
        JsonPath template = MediaApi.registerTemplate(Files.readString(Templates.sampleFile("brand-story")))
                .statusCode(org.hamcrest.Matchers.oneOf(200, 201)).extract().jsonPath();
        String templateId = template.getString("template-id");
        int version = template.getInt("version");
        UUID client = UUID.randomUUID();
        double misses = count("chunk", "miss");
        render(client, "story-1", "brand-story", Map.of("personalization_fields", Map.of("name", "Ada")));
        assertThat(count("chunk", "miss") - misses).as("intro and outro, first time").isEqualTo(2);
        JsonPath second = render(client, "story-2", "brand-story",
                Map.of("personalization_fields", Map.of("name", "Grace")));
        assertThat(count("chunk", "miss") - misses).isEqualTo(2);

        // hls.js in Chromium, handed stream-url the moment the status offers it, plays the cached opening and what
        // follows it to the end (media-service/src/test/browser/stream-play.mjs)
        String id = MediaApi.request(client, body("story-3", "brand-story",
                Map.of("personalization_fields", Map.of("name", "Linus")))).statusCode(200).extract()
                .path("service-request-id");
        String status = MediaApi.status(client, id).statusCode(200).extract().asString();
        String streamUrl = new JsonPath(status).getString("stream-url");
        assertThat(streamUrl).as(status).isNotNull();
        Process node = new ProcessBuilder("node", Path.of("src/test/browser/stream-play.mjs").toString(), streamUrl)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.waitFor(180, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        JsonPath played = new JsonPath(out.lines().reduce((a, b) -> b).orElse("{}"));
        assertThat(played.getList("fatal")).as(out).isEmpty();
        assertThat(played.getBoolean("ended")).as(out).isTrue();
        assertThat(played.getDouble("duration")).as("the whole 12 s video").isCloseTo(12.0, within(0.3));
        assertThat(MediaApi.awaitFinal(client, id).getString("status")).isEqualTo("SUCCESS");

        // another vendor never gets this vendor's pieces: it renders its own, under its own prefix
        UUID other = UUID.randomUUID();
        render(other, "story-1", "brand-story", Map.of("personalization_fields", Map.of("name", "Ada")));
        assertThat(count("chunk", "miss") - misses).isEqualTo(4);
        assertThat(listed(other, templateId, version)).filteredOn(key -> !key.contains("/opening")).hasSize(3);
        assertThat(listed(other, templateId, version)).as("its first render names its own opening")
                .contains("cache/" + other + "/" + templateId + "/" + version + "/opening.m3u8");
        assertThat(listed(client, templateId, version)).as("two pieces and the sound, and the opening kept")
                .filteredOn(key -> !key.contains("/opening")).hasSize(3);
        assertThat(listed(client, templateId, version)).as("named as the version's opening")
                .contains("cache/" + client + "/" + templateId + "/" + version + "/opening.m3u8");
        assertThat(listed(client, templateId, version)).filteredOn(key -> key.contains("/opening-"))
                .anySatisfy(key -> assertThat(key).endsWith("/index.m3u8"))
                .anySatisfy(key -> assertThat(key).endsWith("/stream-00000.ts"));

        Path cached = download(second.getString("video-url"), dir, "cached.mp4");
        ResolvedVideo video = Templates.resolve(Templates.sample("brand-story"),
                "{\"personalization_fields\": {\"name\": \"Grace\"}}");
        Path full = new RenderEngine(FfmpegRunner.locate(null), Fonts.DEFAULT_DIRECTORY)
                .render(video, Map.of(), Files.createDirectories(dir.resolve("full")), Duration.ofSeconds(120))
                .video();
        Likeness.assertSameVideo(cached, full, video, dir);
    }

    @Test
    void aNewTemplateVersionRendersItsStaticRunsAgain() throws Exception {
        JsonPath template = MediaApi.registerTemplate(Files.readString(Templates.sampleFile("brand-story")))
                .statusCode(org.hamcrest.Matchers.oneOf(200, 201)).extract().jsonPath();
        String templateId = template.getString("template-id");
        UUID client = UUID.randomUUID();
        render(client, "v-1", "brand-story", Map.of("personalization_fields", Map.of("name", "Ada")));
        assertThat(listed(client, templateId, template.getInt("version")))
                .filteredOn(key -> !key.contains("/opening")).hasSize(3);
        String changed = Files.readString(Templates.sampleFile("brand-story"))
                .replace("See you in store", "See you in store " + UUID.randomUUID().toString().substring(0, 6));
        int next = MediaApi.registerTemplate(changed).statusCode(201).extract().path("version");
        double misses = count("chunk", "miss");
        double soundMisses = count("sound", "miss");
        render(client, "v-2", "brand-story", Map.of("personalization_fields", Map.of("name", "Ada")));
        assertThat(count("chunk", "miss") - misses).as("both static runs of the new version").isEqualTo(2);
        assertThat(count("sound", "miss") - soundMisses).as("and its sound").isEqualTo(1);
        assertThat(listed(client, templateId, next)).filteredOn(key -> !key.contains("/opening")).hasSize(3);
        MediaApi.registerTemplate(Files.readString(Templates.sampleFile("brand-story"))).statusCode(201);
    }
}
