package io.pmedia.media;

import static io.pmedia.media.MediaApi.awaitFinal;
import static io.pmedia.media.MediaApi.body;
import static io.pmedia.media.MediaApi.download;
import static io.pmedia.media.MediaApi.rendered;
import static io.pmedia.media.MediaApi.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The sample template that uses every feature (deploy/local/templates/showcase.json) rendered by the real workers
 * over the real broker and store: what the status offers is fetched and read back.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TemplateFeaturesRenderTest {

    private final FfmpegRunner ffmpeg = FfmpegRunner.locate(null);
    private AssetServer assets;

    @BeforeAll
    void setUp() throws Exception {
        assets = new AssetServer();
    }

    /** Registration is idempotent; RestAssured is only pointed at the application per test. */
    @BeforeEach
    void template() throws Exception {
        MediaApi.registerTemplate(Files.readString(Path.of("../deploy/local/templates/showcase.json")))
                .statusCode(org.hamcrest.Matchers.oneOf(200, 201));
    }

    @AfterAll
    void tearDown() {
        assets.close();
    }

    @Test
    void renditionsSpeechAndCaptionsReachTheVendor(@TempDir Path dir) throws Exception {
        UUID client = UUID.randomUUID();
        JsonPath accepted = request(client, body("show-1", "showcase", Map.of(
                "personalization_fields", Map.of("name", "Ada", "offer", "20% off", "first_name", "Ada"),
                "global_assets", Map.of("images", List.of(assets.url("/ada.png"))))))
                .statusCode(200).extract().jsonPath();
        assertThat(accepted.getString("message")).isEqualTo("request accepted; ignored fields: first_name");
        JsonPath status = awaitFinal(client, accepted.getString("service-request-id"));
        assertThat(status.getString("status")).as(status.prettify()).isEqualTo("SUCCESS");

        Map<String, String> renditions = status.getMap("renditions");
        assertThat(renditions).containsOnlyKeys("main", "mobile", "web", "teaser");
        // The same object: each link is signed as the status is read, so the two may carry different X-Amz-Dates.
        assertThat(renditions.get("main").split("\\?")[0]).isEqualTo(status.getString("video-url").split("\\?")[0]);

        FfmpegRunner.Probe main = ffmpeg.probe(download(renditions.get("main"), dir, "main.mp4"));
        assertThat(main.width()).isEqualTo(640);
        assertThat(main.height()).isEqualTo(360);
        assertThat(main.durationSeconds()).as("3 s + 3 s less the 0.4 s wipe").isCloseTo(5.6, within(0.1));
        FfmpegRunner.Probe mobile = ffmpeg.probe(download(renditions.get("mobile"), dir, "mobile.mp4"));
        assertThat(mobile.width()).isEqualTo(320);
        assertThat(mobile.height()).isEqualTo(180);
        FfmpegRunner.Probe web = ffmpeg.probe(download(renditions.get("web"), dir, "web.webm"));
        assertThat(web.streams()).extracting(FfmpegRunner.Stream::codec).containsExactlyInAnyOrder("vp9", "opus");
        FfmpegRunner.Probe teaser = ffmpeg.probe(download(renditions.get("teaser"), dir, "teaser.gif"));
        assertThat(teaser.height()).isEqualTo(120);
        assertThat(teaser.durationSeconds()).isCloseTo(2.0, within(0.3));

        String playlist = new String(io.restassured.RestAssured.given().urlEncodingEnabled(false)
                .get(status.getString("stream-url")).then().statusCode(200).extract().asByteArray());
        assertThat(playlist).as("a complete VOD playlist once the video is ready")
                .contains("#EXT-X-PLAYLIST-TYPE:VOD").endsWith("#EXT-X-ENDLIST\n");
        List<String> segments = playlist.lines().filter(line -> line.startsWith("http")).toList();
        double streamed = playlist.lines().filter(line -> line.startsWith("#EXTINF:"))
                .mapToDouble(line -> Double.parseDouble(line.substring(8, line.indexOf(',')))).sum();
        assertThat(streamed).isCloseTo(5.6, within(0.15));
        assertThat(segments).hasSizeGreaterThanOrEqualTo(5);
        for (String segment : segments) {
            io.restassured.RestAssured.given().urlEncodingEnabled(false).get(segment).then().statusCode(200);
        }
        io.restassured.RestAssured.given().urlEncodingEnabled(false).get(segments.get(0).replaceAll("\\?.*", ""))
                .then().statusCode(403); // a segment without its signature is refused

        String vtt = Files.readString(download(status.getString("captions-url"), dir, "captions.vtt"));
        assertThat(vtt).startsWith("WEBVTT\n");
        assertThat(vtt).contains("Hello Ada. We made this video for you.").contains("Your offer: 20% off.");
        Matcher first = Pattern
                .compile("(\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d{3}) --> (\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d{3})")
                .matcher(vtt);
        assertThat(first.find()).isTrue();
        double start = Integer.parseInt(first.group(3)) + Integer.parseInt(first.group(4)) / 1000.0;
        double end = Integer.parseInt(first.group(7)) + Integer.parseInt(first.group(8)) / 1000.0;
        assertThat(start).isEqualTo(0.2);
        assertThat(meanVolume(dir.resolve("main.mp4"), start, end - start))
                .as("speech is well above the quiet tone where the captions say it is").isGreaterThan(-35);
    }

    static final String SPOKEN = """
            {"use-case-id": "spoken-length", "name": "Spoken length",
             "canvas": {"width": 160, "height": 90, "fps": 25},
             "fields": [{"name": "name", "required": true}],
             "segments": [
               {"id": "say", "duration": "speech", "layers": [
                 {"type": "speech", "text": "Hello {{name}}, this segment lasts as long as I speak.", "start": 0.5}]},
               {"id": "end", "duration": 1}]}""";

    @Test
    void aSegmentOfDurationSpeechLastsAsLongAsItsSpeech(@TempDir Path dir) throws Exception {
        MediaApi.registerTemplate(SPOKEN).statusCode(org.hamcrest.Matchers.oneOf(200, 201));
        UUID client = UUID.randomUUID();
        double shortName = renderedSeconds(client, "Al", dir);
        double longName = renderedSeconds(client, "Bartholomew Maximilian Konstantinopoulou-Vanderbilt", dir);
        assertThat(shortName).as("0.5 s, the speech, a 0.4 s pause, then the 1 s end").isGreaterThan(3);
        assertThat(longName).as("a longer name is spoken longer").isGreaterThan(shortName + 0.5);
    }

    private double renderedSeconds(UUID client, String name, Path dir) throws Exception {
        JsonPath status = rendered(client, body("spoken-" + name.length(), "spoken-length", Map.of(
                "personalization_fields", Map.of("name", name))));
        assertThat(status.getString("status")).as(status.prettify()).isEqualTo("SUCCESS");
        String vtt = Files.readString(download(status.getString("captions-url"), dir, "spoken-" + name.length()));
        FfmpegRunner.Probe video = ffmpeg.probe(download(status.getString("video-url"), dir,
                "spoken-" + name.length() + ".mp4"));
        Matcher cue = Pattern.compile("--> 00:00:(\\d\\d)\\.(\\d{3})").matcher(vtt);
        double lastCueEnd = 0;
        while (cue.find()) {
            lastCueEnd = Integer.parseInt(cue.group(1)) + Integer.parseInt(cue.group(2)) / 1000.0;
        }
        assertThat(video.durationSeconds()).as("the speech segment ends 0.4 s after the speech, then 1 s")
                .isCloseTo(lastCueEnd + 0.4 + 1, within(0.1));
        return video.durationSeconds();
    }

    static final String DUCKED = """
            {"use-case-id": "ducked-soundtrack", "name": "Ducked soundtrack",
             "canvas": {"width": 160, "height": 90, "fps": 25},
             "fields": [{"name": "name", "required": true}],
             "audio": {"type": "track", "url": "%s", "volume": 0.5, "fade-in": 0.5, "duck": 0.1},
             "segments": [{"id": "only", "duration": 6, "layers": [
               {"type": "speech", "text": "Hello {{name}}, the music is lower while I speak.", "start": 2}]}]}""";

    @Test
    void theSoundtrackFadesInAndIsDuckedUnderSpeech(@TempDir Path dir) throws Exception {
        MediaApi.registerTemplate(DUCKED.formatted(assets.url("/music.wav")))
                .statusCode(org.hamcrest.Matchers.oneOf(200, 201));
        UUID client = UUID.randomUUID();
        JsonPath status = rendered(client, body("ducked-1", "ducked-soundtrack",
                Map.of("personalization_fields", Map.of("name", "Ada"))));
        assertThat(status.getString("status")).as(status.prettify()).isEqualTo("SUCCESS");
        Path video = download(status.getString("video-url"), dir, "ducked.mp4");
        String track = "bandpass=f=6000:width_type=h:w=200,";
        double before = meanVolume(video, 1.0, 0.8, track);
        double under = meanVolume(video, 2.3, 0.5, track);
        double fading = meanVolume(video, 0.0, 0.2, track);
        assertThat(under).as("the soundtrack under the voice is 20 dB lower (duck 0.1)").isLessThan(before - 12);
        assertThat(fading).as("the soundtrack fades in").isLessThan(before - 3);
    }

    @Test
    void aPictureWithMotionMovesInItsBox(@TempDir Path dir) throws Exception {
        UUID client = UUID.randomUUID();
        JsonPath status = rendered(client, body("motion-1", "showcase", Map.of("personalization_fields",
                Map.of("name", "Ada"), "global_assets", Map.of("images", List.of(assets.url("/ada.png"))))));
        assertThat(status.getString("status")).isEqualTo("SUCCESS");
        Path video = download(status.getString("video-url"), dir, "motion.mp4");
        // the photo's box (200x150 at x 220, y 140 of 640x360) zooms in between 0.5 s and 2.5 s
        byte[] early = frame(video, 0.5);
        byte[] late = frame(video, 2.5);
        long changed = 0;
        for (int y = 140; y < 290; y++) {
            for (int x = 220; x < 420; x++) {
                changed += Math.abs((early[y * 640 + x] & 0xff) - (late[y * 640 + x] & 0xff)) > 24 ? 1 : 0;
            }
        }
        assertThat(changed).as("pixels of the zooming photo that changed").isGreaterThan(2000);
    }

    /** The frame at {@code seconds} as 640x360 grey bytes. */
    private byte[] frame(Path video, double seconds) throws Exception {
        Process process = new ProcessBuilder(ffmpeg.ffmpeg(), "-hide_banner", "-loglevel", "error", "-ss",
                Double.toString(seconds), "-i", video.toString(), "-frames:v", "1", "-f", "rawvideo", "-pix_fmt",
                "gray", "-").start();
        byte[] frame = process.getInputStream().readAllBytes();
        process.waitFor(30, TimeUnit.SECONDS);
        assertThat(frame).hasSize(640 * 360);
        return frame;
    }

    /** Mean volume in dB from {@code start} for {@code length} seconds. */
    private double meanVolume(Path file, double start, double length) throws Exception {
        return meanVolume(file, start, length, "");
    }

    /** Mean volume in dB from {@code start} for {@code length} seconds, after {@code filters} (ending with a comma). */
    private double meanVolume(Path file, double start, double length, String filters) throws Exception {
        Process process = new ProcessBuilder(ffmpeg.ffmpeg(), "-hide_banner", "-nostats", "-ss",
                Double.toString(start), "-t", Double.toString(length), "-i", file.toString(), "-vn", "-af",
                filters + "volumedetect", "-f", "null", "-").redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(30, TimeUnit.SECONDS);
        Matcher mean = Pattern.compile("mean_volume: (-?[0-9.]+) dB").matcher(out);
        assertThat(mean.find()).as(out).isTrue();
        return Double.parseDouble(mean.group(1));
    }
}
