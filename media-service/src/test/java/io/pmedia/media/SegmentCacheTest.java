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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.micrometer.core.instrument.MeterRegistry;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.render.FfmpegRunner;
import io.pmedia.media.render.Fonts;
import io.pmedia.media.render.RenderEngine;
import io.pmedia.media.render.WorkDirs;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.Templates;
import io.pmedia.storage.ObjectStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The segment cache through the real workers, broker and store (deploy/local/templates/brand-story.json: a static
 * intro and outro around a personal middle): miss then hit, a cold worker warming from the store, a new template
 * version missing again, one vendor's pieces never another's, and a cached render equal to a full one frame by frame.
 */
@QuarkusTest
class SegmentCacheTest {

    @Inject
    MeterRegistry registry;

    @Inject
    ObjectStore store;

    @Inject
    MediaConfig config;

    private String templateId;
    private int version;

    @BeforeEach
    void template() throws Exception {
        JsonPath registered = MediaApi.registerTemplate(Files.readString(Templates.sampleFile("brand-story")))
                .statusCode(org.hamcrest.Matchers.oneOf(200, 201)).extract().jsonPath();
        templateId = registered.getString("template-id");
        version = registered.getInt("version");
    }

    private double count(String outcome) {
        var counter = registry.find("pmedia.render.segment.cache").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    private JsonPath render(UUID client, String requestId, String name) {
        JsonPath status = rendered(client, body(requestId, "brand-story",
                Map.of("personalization_fields", Map.of("name", name))));
        assertThat(status.getString("status")).as(status.prettify()).isEqualTo("SUCCESS");
        return status;
    }

    private List<String> listed(UUID client, int templateVersion) {
        return store.list("cache/" + client + "/" + templateId + "/" + templateVersion + "/");
    }

    @Test
    void theStaticSegmentsRenderOnceAndTheNextRequestReusesThem(@TempDir Path dir) throws Exception {
        UUID client = UUID.randomUUID();
        double misses = count("miss");
        double hits = count("hit");
        render(client, "story-1", "Ada");
        assertThat(count("miss") - misses).as("intro and outro, first time").isEqualTo(2);
        assertThat(listed(client, version)).as("kept in the store under the vendor's cache prefix").hasSize(2);

        // (a job can be rendered twice, at least once, when the render workers' group rebalances mid-render:
        // then it hits too; what must never happen again is a miss)
        JsonPath second = render(client, "story-2", "Grace");
        assertThat(count("hit") - hits).as("intro and outro, reused").isGreaterThanOrEqualTo(2);
        assertThat(count("miss") - misses).isEqualTo(2);

        // a cold worker: nothing local, the store warms it
        WorkDirs.delete(config.workDir().resolve("segment-cache"));
        double warm = count("hit");
        render(client, "story-3", "Linus");
        assertThat(count("hit") - warm).isGreaterThanOrEqualTo(2);
        assertThat(count("miss") - misses).isEqualTo(2);

        // another vendor never gets this vendor's pieces
        UUID other = UUID.randomUUID();
        render(other, "story-1", "Ada");
        assertThat(count("miss") - misses).isEqualTo(4);
        assertThat(listed(other, version)).hasSize(2);

        // the cached render is the full render, frame by frame
        Path cached = download(second.getString("video-url"), dir, "cached.mp4");
        ResolvedVideo video = Templates.resolve(Templates.sample("brand-story"),
                "{\"personalization_fields\": {\"name\": \"Grace\"}}");
        Path work = Files.createDirectories(dir.resolve("full"));
        Path full = new RenderEngine(FfmpegRunner.locate(null), Fonts.DEFAULT_DIRECTORY)
                .render(video, Map.of(), work, Duration.ofSeconds(120)).video();
        FfmpegRunner ffmpeg = FfmpegRunner.locate(null);
        assertThat(ffmpeg.probe(cached).durationSeconds()).isCloseTo(ffmpeg.probe(full).durationSeconds(),
                within(1.0 / 30));
        List<Double> ssim = ssim(cached, full, dir);
        assertThat(ssim).hasSize(video.frames());
        assertThat(ssim).allSatisfy(value -> assertThat(value).isGreaterThanOrEqualTo(0.98));

        String playlist = new String(io.restassured.RestAssured.given().urlEncodingEnabled(false)
                .get(second.getString("stream-url")).then().statusCode(200).extract().asByteArray(),
                StandardCharsets.UTF_8);
        assertThat(playlist).contains("#EXT-X-PLAYLIST-TYPE:VOD").contains("#EXT-X-ENDLIST");
    }

    @Test
    void aNewTemplateVersionRendersItsStaticSegmentsAgain() throws Exception {
        UUID client = UUID.randomUUID();
        render(client, "v-1", "Ada");
        assertThat(listed(client, version)).hasSize(2);
        String changed = Files.readString(Templates.sampleFile("brand-story"))
                .replace("See you in store", "See you in store " + UUID.randomUUID().toString().substring(0, 6));
        int next = MediaApi.registerTemplate(changed).statusCode(201).extract().path("version");
        double misses = count("miss");
        render(client, "v-2", "Ada");
        assertThat(count("miss") - misses).as("both static segments of the new version").isEqualTo(2);
        assertThat(listed(client, next)).hasSize(2);
        MediaApi.registerTemplate(Files.readString(Templates.sampleFile("brand-story"))).statusCode(201);
    }

    /** SSIM of every frame ("All") of two videos, by FFmpeg's ssim filter. */
    private static List<Double> ssim(Path a, Path b, Path dir) throws Exception {
        Path stats = dir.resolve("ssim.log");
        Process process = new ProcessBuilder("ffmpeg", "-hide_banner", "-loglevel", "error", "-i", a.toString(),
                "-i", b.toString(), "-lavfi", "ssim=stats_file=" + stats.getFileName(), "-f", "null", "-")
                .directory(dir.toFile()).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        List<Double> values = new ArrayList<>();
        Matcher all = Pattern.compile("All:([0-9.]+)").matcher(Files.readString(stats));
        while (all.find()) {
            values.add(Double.parseDouble(all.group(1)));
        }
        return values;
    }
}
