package io.pmedia.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/** Every payload goes into its envelope and comes back equal; envelopes of other types are not mistaken for it. */
class EventCodecTest {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule());
    private static final UUID CLIENT = UUID.randomUUID();
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    /** One instance of every payload type. */
    static final Map<Class<? extends EventPayload>, EventPayload> PAYLOADS = Map.ofEntries(
            Map.entry(MediaStatusChanged.class,
                    new MediaStatusChanged(CLIENT, UUID.randomUUID(), "order-7", "u-1", "c-1",
                            "greeting", null, MediaStatus.SUCCESS, "video ready", "https://v", "https://i", "sh_0123")),
            Map.entry(BatchStatusChanged.class,
                    new BatchStatusChanged(CLIENT, UUID.randomUUID(), "spring", UUID.randomUUID(),
                            BatchStatus.IN_PROGRESS, null, 10, 4,
                            "4 of 10 rows, projected to finish 14:05Z, due 14:10Z",
                            NOW.plusSeconds(600), NOW.plusSeconds(300))),
            Map.entry(TryOnStatusChanged.class, new TryOnStatusChanged(CLIENT, UUID.randomUUID(), "u-1", "fitting-room",
                    TryOnStatus.PROCESSING, null, "try-on accepted")),
            Map.entry(CampaignStatusChanged.class, new CampaignStatusChanged(CLIENT, "spring", CampaignStatus.ACTIVE,
                    CampaignStatus.SCHEDULED, NOW, NOW.plusSeconds(3600), RenderMode.ON_VIEW)),
            Map.entry(DeliveryExhausted.class,
                    new DeliveryExhausted(CLIENT, "msg_0123", UUID.randomUUID(), "https://hook", 7,
                            500, "HTTP 500", JSON.createObjectNode().put("video-url", "https://v"))),
            Map.entry(RenderJob.class, new RenderJob("job-1", "batch", "pmedia.batch.render-results", CLIENT,
                    UUID.randomUUID(),
                    3, JSON.createObjectNode().put("use-case-id", "greeting"),
                    new RenderInput(Map.of("name", "Ada"), List.of("https://a.png"), null, null, List.of("gold"),
                            List.of(new FrameSegment("hello", 1, null, 2.5, Map.of("headline", "Hi"), null))),
                    "batch/" + CLIENT + "/t/1/", 120, RenderLane.BATCH, true)),
            Map.entry(RenderResult.class, new RenderResult("job-1", "batch", RenderOutcome.SUCCESS, "video ready",
                    "batch/x/video.mp4", "batch/x/thumbnail.jpg", 10.0, 1280, 720, 1350L,
                    Map.of("main", "batch/x/video.mp4", "web", "batch/x/web.webm"), "batch/x/captions.vtt", CLIENT,
                    1_234_567L)),
            Map.entry(RenderOnView.class, new RenderOnView(CLIENT, "sh_0123", SharedVideo.Source.batch, null,
                    UUID.randomUUID(), 4, 1, NOW)),
            Map.entry(SharedVideo.class, new SharedVideo(CLIENT, SharedVideo.Source.batch, null, UUID.randomUUID(),
                    "spring", UUID.randomUUID(), 2, "greeting", List.of(new SharedVideo.Video("sh_0123",
                            SharedVideo.State.ACTIVE, 4, "u-4", "Hello Ada", new SharedVideo.Cta("Shop", "https://s"),
                            new SharedVideo.Branding(null, "#112233"), "batch/x/video.mp4", "batch/x/thumbnail.jpg",
                            null, 1280, 720, 10.0, NOW, NOW.plusSeconds(86400))))),
            Map.entry(ViewerEvent.class, new ViewerEvent("sh_0123", CLIENT, UUID.randomUUID(), null, null,
                    UUID.randomUUID(), ViewerEvent.Kind.progress, "s-1", "v-1", 50, 5.0, false, NOW)),
            Map.entry(EngagementMilestone.class, new EngagementMilestone(EngagementMilestone.RENDERED, CLIENT,
                    "sh_0123", null, UUID.randomUUID(), 4, "spring", UUID.randomUUID(), "u-4", 0, 0, 0, NOW,
                    "https://pmedia.example/v/sh_0123", "https://pmedia.example/v/sh_0123/video.mp4", 1, null)));

    private final EventCodec codec = new EventCodec(JSON);

    @Test
    void everyPayloadSurvivesItsEnvelope() {
        PAYLOADS.forEach((Class<? extends EventPayload> type, EventPayload payload) -> {
            CloudEvent envelope = codec.envelope("/test", payload);
            assertThat(envelope.type()).isEqualTo(payload.type());
            assertThat(envelope.subject()).isEqualTo(payload.key());
            EventPayload decoded = codec.decode(codec.json(envelope), type).orElseThrow();
            assertThat(decoded).as(type.getSimpleName()).isEqualTo(payload);
        });
    }

    @Test
    void anEnvelopeWrittenInOnePassIsTheTextOfTheTreeEnvelope() {
        PAYLOADS.forEach((Class<? extends EventPayload> type, EventPayload payload) -> {
            String direct = codec.json("/test", payload);
            CloudEvent read = codec.read(direct);
            CloudEvent tree = codec.envelope("/test", payload);
            CloudEvent same = new CloudEvent(tree.specversion(), read.id(), tree.source(), tree.type(), read.time(),
                    tree.subject(), tree.datacontenttype(), tree.data());
            assertThat(direct).as(type.getSimpleName()).isEqualTo(codec.json(same));
            assertThat(codec.data(read, type)).get().isEqualTo(payload);
            EventCodec.Text text = codec.text("/test", payload);
            assertThat(codec.read(text.json()).id()).as("the id beside the text").isEqualTo(text.id());
        });
    }

    @Test
    void anEnvelopeOfAnotherTypeIsNotReadAsThisOne() {
        String job = codec.json(codec.envelope("/test", PAYLOADS.get(RenderJob.class)));
        assertThat(codec.decode(job, RenderResult.class)).isEmpty();
    }

    @Test
    void theWireSpellingsAreTheInterfaceDocuments() {
        JsonNode batch = codec.envelope("/test", PAYLOADS.get(BatchStatusChanged.class)).data();
        assertThat(batch.path("status").asText()).isEqualTo("IN PROGRESS");
        assertThat(batch.has("total-count")).isTrue();
        assertThat(batch.path("due-at").asText()).isEqualTo(NOW.plusSeconds(600).toString());
        JsonNode job = codec.envelope("/test", PAYLOADS.get(RenderJob.class)).data();
        assertThat(job.path("lane").asText()).isEqualTo("batch");
        assertThat(PAYLOADS.get(RenderJob.class).topic()).isEqualTo(Topics.RENDER_JOBS_BATCH);
        JsonNode campaign = codec.envelope("/test", PAYLOADS.get(CampaignStatusChanged.class)).data();
        assertThat(campaign.path("start_time").asText()).isEqualTo(NOW.toString());
        assertThat(campaign.has("topic")).as("routing is not data").isFalse();
        assertThat(campaign.path("render").asText()).isEqualTo("on-view");
    }

    @Test
    void aFirstFrameTravelsWithItsTimeAndSourceAndAKindOfANewerVersionReadsAsNone() {
        ViewerEvent first = new ViewerEvent("sh_0123", CLIENT, null, UUID.randomUUID(), "spring", UUID.randomUUID(),
                ViewerEvent.Kind.first_frame, "s-1", "v-1", null, 0.0, false, NOW, 840, ViewerEvent.FrameSource.stream);
        CloudEvent envelope = codec.envelope("/test", first);
        assertThat(envelope.data().path("kind").asText()).isEqualTo("first-frame");
        assertThat(envelope.data().path("first-frame-ms").asInt()).isEqualTo(840);
        assertThat(envelope.data().path("first-frame-source").asText()).isEqualTo("stream");
        assertThat(codec.decode(codec.json(envelope), ViewerEvent.class)).contains(first);
        // what a newer replica may send: read with no kind, which engagement's rollup skips
        String newer = codec.json(envelope).replace("\"first-frame\"", "\"replay\"");
        assertThat(newer).contains("\"replay\"");
        assertThat(codec.decode(newer, ViewerEvent.class).orElseThrow().kind()).isNull();
    }

    @Test
    void aRecordThatIsNotAnEventIsUnreadable() {
        assertThatThrownBy(() -> codec.read("{\"hello\":1}")).isInstanceOf(EventCodec.UnreadableEvent.class);
        assertThatThrownBy(() -> codec.read("not json")).isInstanceOf(EventCodec.UnreadableEvent.class);
    }
}
