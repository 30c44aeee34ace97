package io.pmedia.engagement.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.events.SharedVideo;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A template version's cached opening, through the real store: read once and reused by every link of the version,
 * asked for again a few seconds after it was missing, never taken when it names another vendor's objects, and only
 * for batch rows.
 */
@QuarkusTest
class StreamOpeningsTest {

    @Inject
    ObjectStore store;

    private final AtomicLong now = new AtomicLong();

    @Test
    void aVersionsOpeningIsReadOnceAndAMissingOneIsAskedForAgainSoon() {
        StreamOpenings openings = new StreamOpenings(store, now::get);
        UUID vendor = UUID.randomUUID();
        UUID template = UUID.randomUUID();
        SharedVideoRow first = row(vendor, template, "batch");

        assertThat(openings.playlist(first)).as("nothing rendered yet").isEmpty();
        String segments = "cache/" + vendor + "/" + template + "/3/opening-0a1b/";
        keep(vendor, template, "#EXTM3U\n#EXTINF:1.000000,\n" + segments + "stream-00000.ts\n");
        assertThat(openings.playlist(first)).as("a missing opening stands for a few seconds").isEmpty();

        advance(StreamOpenings.ABSENT_FOR.plusSeconds(1));
        String playlist = new String(openings.playlist(first).orElseThrow(), StandardCharsets.UTF_8);
        List<String> urls = playlist.lines().filter(line -> line.startsWith("http")).toList();
        assertThat(urls).as(playlist).hasSize(1);
        assertThat(urls.get(0)).contains(segments + "stream-00000.ts").contains("X-Amz-Signature");

        // every other link of the version gets it without the store: gone from it, it is still here
        store.delete(VendorNamespace.templateOpening(vendor, template, 3));
        assertThat(openings.playlist(row(vendor, template, "batch"))).isPresent();
        advance(StreamOpenings.KEPT_FOR.plusSeconds(1));
        assertThat(openings.playlist(row(vendor, template, "batch"))).as("read again after its time").isEmpty();
    }

    @Test
    void anOpeningOfAnotherVendorsObjectsOrARealtimeRequestOpensNothing() {
        StreamOpenings openings = new StreamOpenings(store, now::get);
        UUID vendor = UUID.randomUUID();
        UUID template = UUID.randomUUID();
        keep(vendor, template, "#EXTM3U\n#EXTINF:1.000000,\ncache/" + UUID.randomUUID() + "/" + template
                + "/3/opening-0a1b/stream-00000.ts\n");
        assertThat(openings.playlist(row(vendor, template, "batch"))).isEmpty();

        UUID own = UUID.randomUUID();
        keep(vendor, own, "#EXTM3U\n#EXTINF:1.000000,\ncache/" + vendor + "/" + own + "/3/o/stream-00000.ts\n");
        assertThat(openings.playlist(row(vendor, own, "batch"))).isPresent();
        assertThat(openings.playlist(row(vendor, own, SharedVideo.Source.realtime.name())))
                .as("a realtime request's stream is media-service's").isEmpty();
    }

    private void keep(UUID vendor, UUID template, String playlist) {
        store.put(VendorNamespace.templateOpening(vendor, template, 3), playlist.getBytes(StandardCharsets.UTF_8),
                StreamOpenings.PLAYLIST_TYPE);
    }

    private void advance(Duration by) {
        now.addAndGet(by.toNanos());
    }

    private static SharedVideoRow row(UUID vendor, UUID template, String source) {
        SharedVideoRow row = new SharedVideoRow();
        row.shareId = "Sh" + UUID.randomUUID().toString().replace("-", "");
        row.clientId = vendor;
        row.templateId = template;
        row.templateVersion = 3;
        row.source = source;
        row.streamKey = "media/" + vendor + "/" + UUID.randomUUID() + "/stream/index.m3u8";
        return row;
    }
}
