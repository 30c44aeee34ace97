package io.pmedia.media.render.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pmedia.events.RenderJob;

/** The stream publisher over a real HLS stream written by FFmpeg, into an in-memory store. */
class StreamPublisherTest {

    /** The store: what was put under which key, and URLs that name the key. */
    static final class MemorySink implements StreamPublisher.Sink {
        final Map<String, byte[]> objects = new ConcurrentHashMap<>();

        @Override
        public void put(String key, Path file, String contentType) {
            try {
                objects.put(key, Files.readAllBytes(file));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public void put(String key, byte[] content, String contentType) {
            objects.put(key, content);
        }

        @Override
        public String url(String key) {
            return "https://store.example/" + key + "?signed";
        }

        @Override
        public java.util.Optional<byte[]> get(String key) {
            return java.util.Optional.ofNullable(objects.get(key));
        }

        String text(String key) {
            return new String(objects.get(key), StandardCharsets.UTF_8);
        }
    }

    static void hls(Path dir, double seconds) throws Exception {
        Process ffmpeg = new ProcessBuilder("ffmpeg", "-y", "-loglevel", "error", "-f", "lavfi", "-i",
                "testsrc=size=160x90:rate=25:duration=" + seconds, "-c:v", "libx264", "-preset", "ultrafast",
                "-force_key_frames", "expr:gte(t,n_forced*1)", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0",
                "-hls_playlist_type", "event", "-hls_segment_filename", dir.resolve("stream-%05d.ts").toString(),
                dir.resolve("stream.m3u8").toString()).inheritIO().start();
        assertThat(ffmpeg.waitFor()).isZero();
    }

    @Test
    void whileRenderingTheStreamIsAnEventPlaylistOfStoredSegmentsAndAfterwardsAVodPlaylist(@TempDir Path dir)
            throws Exception {
        hls(dir, 3);
        Path local = dir.resolve("stream.m3u8");
        List<String> written = Files.readAllLines(local);
        // as FFmpeg has it after its first segment: the header and one segment
        int second = written.indexOf("stream-00001.ts");
        Files.write(dir.resolve("partial.m3u8"), written.subList(0, second - 1));
        Files.copy(dir.resolve("stream-00000.ts"), dir.resolve("stream-00000.ts"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        MemorySink sink = new MemorySink();
        StreamPublisher early = new StreamPublisher(sink, dir.resolve("partial.m3u8"),
                "media/c/r/" + RenderJob.STREAM_PREFIX);
        // where the job's producer told the share page to look (SharedVideo's stream-key)
        assertThat(early.playlistKey()).isEqualTo("media/c/r/" + RenderJob.STREAM_PLAYLIST);
        early.publish(false);
        String event = sink.text("media/c/r/stream/index.m3u8");
        assertThat(event).contains("#EXT-X-PLAYLIST-TYPE:EVENT").doesNotContain("#EXT-X-ENDLIST")
                .contains("https://store.example/media/c/r/stream/stream-00000.ts?signed")
                .doesNotContain("stream-00001.ts");
        assertThat(sink.objects).containsOnlyKeys("media/c/r/stream/stream-00000.ts", "media/c/r/stream/index.m3u8");

        StreamPublisher whole = new StreamPublisher(sink, local, "media/c/r/stream/");
        whole.finish();
        String vod = sink.text("media/c/r/stream/index.m3u8");
        assertThat(vod).contains("#EXT-X-PLAYLIST-TYPE:VOD").endsWith("#EXT-X-ENDLIST\n")
                .doesNotContain("#EXT-X-PLAYLIST-TYPE:EVENT");
        assertThat(vod.lines().filter(line -> line.startsWith("https://"))).hasSize(3)
                .allMatch(
                        line -> line.matches("https://store.example/media/c/r/stream/stream-0000[0-2]\\.ts\\?signed"));
        assertThat(sink.objects.get("media/c/r/stream/stream-00002.ts"))
                .isEqualTo(Files.readAllBytes(dir.resolve("stream-00002.ts")));
    }

    @Test
    void aNameFfmpegWouldNotWriteIsNeverStored(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("stream.m3u8"), "#EXTM3U\n#EXTINF:1.0,\n../../etc/passwd\n#EXTINF:1.0,\n"
                + "stream-00000.ts\n");
        Files.writeString(dir.resolve("stream-00000.ts"), "segment");
        MemorySink sink = new MemorySink();
        new StreamPublisher(sink, dir.resolve("stream.m3u8"), "media/c/r/stream/").finish();
        assertThat(sink.objects).containsOnlyKeys("media/c/r/stream/stream-00000.ts", "media/c/r/stream/index.m3u8");
        assertThat(sink.text("media/c/r/stream/index.m3u8")).doesNotContain("passwd");
    }

    @Test
    void theSegmentsOfTheCachedOpeningKeepTheirUrlsWhenTheRenderContinuesItsPlaylist(@TempDir Path dir)
            throws Exception {
        hls(dir, 3);
        MemorySink sink = new MemorySink();
        // the acceptance's playlist: the cached opening's two segments, kept under the opening's own key
        List<String> written = Files.readAllLines(dir.resolve("stream.m3u8"));
        StreamPublisher.Named opening = StreamPublisher.named(
                written.subList(0, written.indexOf("stream-00001.ts") + 1),
                name -> "https://store.example/media/c/cache/opening-1/" + name + "?signed", false);
        assertThat(opening.segments()).isEqualTo(2);
        sink.put("media/c/r/stream/index.m3u8", opening.text().getBytes(StandardCharsets.UTF_8), "x");

        new StreamPublisher(sink, dir.resolve("stream.m3u8"), "media/c/r/stream/").finish();
        // a player that loaded the opening's playlist reloads this one: the same URL at the same place (hls.js stops
        // on a changed one with a fatal levelParsingError), then this render's own segment
        List<String> urls = sink.text("media/c/r/stream/index.m3u8").lines()
                .filter(line -> line.startsWith("https://")).toList();
        assertThat(urls).containsExactly("https://store.example/media/c/cache/opening-1/stream-00000.ts?signed",
                "https://store.example/media/c/cache/opening-1/stream-00001.ts?signed",
                "https://store.example/media/c/r/stream/stream-00002.ts?signed");
        assertThat(sink.objects).containsOnlyKeys("media/c/r/stream/stream-00002.ts", "media/c/r/stream/index.m3u8");
    }
}
