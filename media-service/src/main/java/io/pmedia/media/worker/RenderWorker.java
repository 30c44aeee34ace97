package io.pmedia.media.worker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pmedia.common.tracing.Traces;
import io.pmedia.events.EventCodec;
import io.pmedia.events.RenderInput;
import io.pmedia.events.RenderJob;
import io.pmedia.events.RenderLane;
import io.pmedia.events.RenderOutcome;
import io.pmedia.events.RenderResult;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.render.RenderException;
import io.pmedia.media.render.WorkDirs;
import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.render.engine.RenderEngines;
import io.pmedia.media.render.speech.Captions;
import io.pmedia.media.render.speech.Cue;
import io.pmedia.media.render.speech.SpeechEngine;
import io.pmedia.media.render.speech.SpeechEngines;
import io.pmedia.media.render.store.AssetFetcher;
import io.pmedia.media.render.store.StoreFonts;
import io.pmedia.media.render.store.StoreMotions;
import io.pmedia.media.render.stream.StreamPublisher;
import io.pmedia.media.template.AssetKind;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateResolutionException;
import io.pmedia.media.template.TemplateResolver;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;

/**
 * Renders one job: decodes it, renders, stores the outputs, and publishes the result on the job's reply topic (the
 * caller, {@link RenderLanes}, commits the job's offset only after the broker acknowledged the result: a worker that
 * dies mid-render leaves the job to be rendered again by another). Every failure becomes a FAILURE
 * result with a message the vendor can act on.
 */
@ApplicationScoped
public class RenderWorker {

    private static final Logger LOG = Logger.getLogger(RenderWorker.class);
    /** What a vendor reads of a failure that is ours, not its template's. */
    private static final String INTERNAL_ERROR = "render failed: internal error";
    private static final byte[] CONTENT_TYPE = "application/cloudevents+json; charset=UTF-8"
            .getBytes(StandardCharsets.UTF_8);

    private static final String SOURCE = "/pmedia/media-service";

    private final ObjectMapper mapper;
    private final EventCodec codec;
    private final AssetFetcher assets;
    private final ObjectStore store;
    private final RenderEngines engines;
    private final SpeechEngines speech;
    private final StoreFonts fonts;
    private final StoreMotions motions;
    private final ChunkCache chunks;
    private final StreamPublisher.Sink streamSink;
    private final StoreRetry storeRetry;
    private final MediaConfig config;
    private final MutinyEmitter<String> results;
    private final MeterRegistry registry;

    public RenderWorker(ObjectMapper mapper, EventCodec codec, AssetFetcher assets, ObjectStore store,
            RenderEngines engines, SpeechEngines speech, StoreFonts fonts, StoreMotions motions, ChunkCache chunks,
            StoreRetry storeRetry,
            MediaConfig config, @Channel("render-results") MutinyEmitter<String> results, MeterRegistry registry) {
        this.mapper = mapper;
        this.codec = codec;
        this.assets = assets;
        this.store = store;
        this.engines = engines;
        this.speech = speech;
        this.fonts = fonts;
        this.motions = motions;
        this.chunks = chunks;
        this.streamSink = new StreamPublisher.Sink() {
            @Override
            public void put(String key, Path file, String contentType) {
                store.put(key, file, contentType);
            }

            @Override
            public void put(String key, byte[] content, String contentType) {
                store.put(key, content, contentType);
            }

            @Override
            public String url(String key) {
                return store.publicUrl(key);
            }

            @Override
            public Optional<byte[]> get(String key) {
                return store.open(key).map(in -> {
                    try (in) {
                        return in.readAllBytes();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        };
        this.storeRetry = storeRetry;
        this.config = config;
        this.results = results;
        this.registry = registry;
    }

    /** A job of a lane whose render ended: its outputs wait in a work directory to be stored. */
    public record Rendered(RenderLane lane, Produced produced) {

        public RenderJob job() {
            return produced.job();
        }
    }

    /**
     * Renders the job of a record of {@code lane} up to its outputs on disk; runs on a render slot's thread. Null when
     * the record is not a job that can be rendered (dropped, with the reason logged). {@link #finish} stores the
     * outputs and gives the result, and may run on another thread while this slot renders its next job.
     */
    public Rendered render(String envelope, RenderLane lane) {
        RenderJob job;
        try {
            job = codec.decode(envelope, RenderJob.class).orElse(null);
        } catch (EventCodec.UnreadableEvent e) {
            LOG.errorf("dropping a render job that cannot be read: %s", e.getMessage());
            return null;
        }
        if (job == null || job.jobId() == null || job.jobId().isBlank()
                || !job.resultTopic().startsWith(RenderJob.REPLY_PREFIX)) {
            LOG.errorf("dropping render job %s: not a job, no job-id, or a reply-to outside %s*",
                    job == null ? null : job.jobId(), RenderJob.REPLY_PREFIX);
            return null;
        }
        if (!RenderJob.REPLY_TOPICS.contains(job.resultTopic())) {
            LOG.warnf("render job %s replies to %s, none of %s: a worker's KafkaUser may not write it in a cluster",
                    job.jobId(), job.resultTopic(), RenderJob.REPLY_TOPICS);
        }
        return new Rendered(lane, produce(job));
    }

    /** Stores a rendered job's outputs and gives its result (a FAILURE when they could not be stored). */
    public RenderResult finish(Rendered rendered) {
        RenderResult result = store(rendered.produced());
        RenderLane lane = rendered.lane();
        if (result.succeeded() && result.renderMillis() != null) {
            Timer.builder("pmedia.render.duration").description("Render wall time, job taken to outputs stored")
                    .tag("lane", lane.wire()).publishPercentiles(0.5, 0.95, 0.99).publishPercentileHistogram()
                    .register(registry).record(Duration.ofMillis(result.renderMillis()));
        }
        registry.counter("pmedia.render.jobs", "producer", String.valueOf(rendered.job().producer()), "lane",
                lane.wire(), "status", result.status().name()).increment();
        return result;
    }

    /**
     * Publishes a job's result on its reply topic, with the current trace context. The stage completes when the
     * broker acknowledged it (the caller, {@link RenderLanes}, commits the job's offset only then, so only after the
     * result is durable) and fails when it could not be published.
     */
    public CompletionStage<Void> publish(RenderJob job, RenderResult result) {
        return results.sendMessage(Message.of(codec.json(codec.envelope(SOURCE, result))).addMetadata(
                OutgoingKafkaRecordMetadata.<String>builder().withTopic(job.resultTopic()).withKey(job.jobId())
                        .withHeaders(headers()).build()))
                .subscribeAsCompletionStage();
    }

    /** The result record's headers: its content type, and the render's trace context when tracing is on. */
    private static RecordHeaders headers() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("content-type", CONTENT_TYPE);
        Traces.inject(headers, Traces.currentParent());
        return headers;
    }

    /** Renders one job into the object store; never throws. */
    public RenderResult render(RenderJob job) {
        return store(produce(job));
    }

    /**
     * A job's render up to its outputs in a work directory ({@code output} set), or its FAILURE result when it could
     * not be rendered ({@code failure} set, the work directory gone).
     */
    public record Produced(RenderJob job, long renderNanos, Path work, ResolvedVideo video, List<Cue> cues,
            RenderEngine.RenderOutput output, RenderResult failure) {

        static Produced failed(RenderJob job, long started, String message) {
            return new Produced(job, System.nanoTime() - started, null, null, null, null,
                    RenderResult.failure(job, message, elapsed(started)));
        }
    }

    /**
     * A stream whose playlist names no segment yet (a row rendered on view: nobody's acceptance wrote one) opens with
     * the template's cached opening at once, as a realtime request's acceptance does, before the job's assets are
     * fetched and its chunks planned: the viewer's page plays within moments of the pickup. The render's publisher
     * continues that playlist. Best effort: without it the stream opens with the render's first segment.
     */
    private void openStream(RenderJob job, ResolvedVideo video) {
        String key = job.outputPrefix() + RenderJob.STREAM_PLAYLIST;
        try {
            boolean named = streamSink.get(key).map(text -> !StreamPublisher.urls(text).isEmpty()).orElse(false);
            if (!named) {
                chunks.openingPlaylist(new ChunkCache.Scope(job.clientId(), job.templateId(), job.templateVersion()),
                        video, store::publicUrl)
                        .ifPresent(opening -> store.put(key, opening, StreamPublisher.PLAYLIST_TYPE));
            }
        } catch (RuntimeException e) {
            LOG.debugf("stream of %s not opened at pickup: %s", job.jobId(), e.getMessage());
        }
    }

    /**
     * Whether the request's opening is every request's of its template version: no segment of the template is shown,
     * skipped or varied by cohort, and the request moves no segment (frame-segments).
     */
    static boolean sameOpening(TemplateDefinition template, RenderInput input) {
        return (input == null || input.frameSegments() == null || input.frameSegments().isEmpty())
                && template.segmentsOrEmpty().stream().allMatch(segment -> segment.variantsOrEmpty().isEmpty()
                        && (segment.cohorts() == null || segment.cohorts().isEmpty()));
    }

    /** Renders one job into files of a work directory; never throws. */
    private Produced produce(RenderJob job) {
        long started = System.nanoTime();
        Path work = config.workDir().resolve("renders").resolve(UUID.randomUUID().toString());
        boolean produced = false;
        try {
            if (job.clientId() == null || job.outputPrefix() == null
                    || !VendorNamespace.owns(job.clientId(), job.outputPrefix() + "video.mp4")) {
                // Outputs go only into the namespace of the vendor the job renders for, whoever produced the job.
                LOG.errorf("render job %s names no output prefix in its client's namespace", job.jobId());
                return Produced.failed(job, started, INTERNAL_ERROR);
            }
            Files.createDirectories(work);
            TemplateDefinition template = mapper.treeToValue(job.template(), TemplateDefinition.class);
            ResolvedVideo video = TemplateResolver.resolve(template, job.input());
            // a person waits for a realtime render: it streams while it renders
            boolean stream = job.lane() != RenderLane.BATCH;
            if (stream) {
                openStream(job, video);
            }
            Map<String, Path> files = new LinkedHashMap<>();
            for (Map.Entry<String, AssetKind> asset : video.assets().entrySet()) {
                files.put(asset.getKey(), storeRetry.get(
                        () -> assets.fetch(job.clientId(), asset.getKey(), asset.getValue()), Path.class));
            }
            for (String font : video.customFonts()) {
                // fetched (and cached) before the render, retried like assets while the store is out
                storeRetry.run(() -> fonts.file(font));
            }
            // the lottie layers' files, beside the assets where the engine finds them (retried the same way)
            ResolvedVideo resolved = video;
            storeRetry.run(() -> motions.fetchInto(resolved, job.motionsOwner(), files));
            Duration limit = job.timeLimitSeconds() == null || job.timeLimitSeconds() <= 0
                    ? config.render().timeLimit()
                    : Duration.ofSeconds(job.timeLimitSeconds());
            Map<ResolvedVideo.Speech, Path> synthesised = new LinkedHashMap<>();
            Map<String, Double> lengths = new LinkedHashMap<>();
            for (ResolvedVideo.TimedSpeech timed : video.speeches()) {
                Path wav = work.resolve("speech-source-" + synthesised.size() + ".wav");
                this.speech.engine().synthesize(timed.speech(), wav);
                synthesised.put(timed.speech(), wav);
                lengths.put(speechKey(timed.speech().text(), timed.speech().voice(), timed.speech().rate()),
                        SpeechEngine.seconds(wav));
            }
            if (!synthesised.isEmpty()) {
                // segments of "duration": "speech" last as long as what was actually spoken
                video = TemplateResolver.resolve(template, job.input(), (text, voice, rate) -> lengths
                        .getOrDefault(speechKey(text, voice, rate), TemplateResolver.estimate(text, voice, rate)));
            }
            List<Path> speech = new ArrayList<>();
            List<Double> spoken = new ArrayList<>();
            for (ResolvedVideo.TimedSpeech timed : video.speeches()) {
                ResolvedVideo.Speech same = synthesised.keySet().stream()
                        .filter(s -> s.id().equals(timed.speech().id()) && s.text().equals(timed.speech().text()))
                        .findFirst().orElseThrow();
                speech.add(synthesised.get(same));
                spoken.add(lengths.get(speechKey(same.text(), same.voice(), same.rate())));
            }
            List<Cue> cues = Captions.cues(video, spoken);
            RenderEngine.RenderOutput output;
            try (StreamPublisher publisher = stream
                    ? new StreamPublisher(streamSink, work.resolve(StreamPublisher.STREAM_FILE),
                            job.outputPrefix() + RenderJob.STREAM_PREFIX).start()
                    : null) {
                output = chunks.render(engines.engine(),
                        new ChunkCache.Scope(job.clientId(), job.templateId(), job.templateVersion(),
                                sameOpening(template, job.input())),
                        video, files, speech, cues, stream, work, limit);
                if (publisher != null) {
                    storeRetry.run(publisher::finish);
                }
            }
            produced = true;
            return new Produced(job, System.nanoTime() - started, work, video, cues, output, null);
        } catch (TemplateResolutionException | RenderException e) {
            LOG.infof("render %s failed: %s", job.jobId(), e.getMessage());
            return Produced.failed(job, started, e.getMessage());
        } catch (RuntimeException | IOException e) {
            LOG.errorf(e, "render %s failed unexpectedly", job.jobId());
            return Produced.failed(job, started, INTERNAL_ERROR);
        } catch (LinkageError | VirtualMachineError e) {
            // a native library that did not load, a class missing, a render that ran out of memory: this job fails,
            // with its result, and the slot goes on (an error thrown past here would end the slot's thread silently
            // and leave its job, and every job after it, unanswered)
            LOG.errorf(e, "render %s failed: %s", job.jobId(), e);
            return Produced.failed(job, started, INTERNAL_ERROR);
        } finally {
            if (!produced) {
                WorkDirs.delete(work);
            }
        }
    }

    /** Stores a render's outputs and gives its result; the work directory is gone afterwards. Never throws. */
    private RenderResult store(Produced produced) {
        if (produced.failure() != null) {
            return produced.failure();
        }
        RenderJob job = produced.job();
        ResolvedVideo video = produced.video();
        RenderEngine.RenderOutput output = produced.output();
        List<Cue> cues = produced.cues();
        Path work = produced.work();
        // the render's own time plus the store's, not the time the job waited between them
        long started = System.nanoTime() - produced.renderNanos();
        try {
            String videoKey = job.outputPrefix() + "video.mp4";
            String thumbnailKey = job.outputPrefix() + "thumbnail.jpg";
            storeRetry.run(() -> store.put(videoKey, output.video(), "video/mp4"));
            storeRetry.run(() -> store.put(thumbnailKey, output.thumbnail(), "image/jpeg"));
            Map<String, String> renditions = new LinkedHashMap<>();
            for (int i = 0; i < video.outputs().size(); i++) {
                ResolvedVideo.Output rendition = video.outputs().get(i);
                String key = i == 0 ? videoKey : job.outputPrefix() + rendition.fileName();
                if (i > 0) {
                    Path file = output.outputs().get(i);
                    storeRetry.run(() -> store.put(key, file, rendition.format().contentType()));
                }
                renditions.put(rendition.name(), key);
            }
            String captionsKey = null;
            if (!cues.isEmpty()) {
                Path vtt = work.resolve("captions.vtt");
                Files.writeString(vtt, Captions.webVtt(cues), StandardCharsets.UTF_8);
                captionsKey = job.outputPrefix() + "captions.vtt";
                String key = captionsKey;
                storeRetry.run(() -> store.put(key, vtt, "text/vtt"));
            }
            long storedBytes = Files.size(output.video()) + Files.size(output.thumbnail());
            for (int i = 1; i < output.outputs().size(); i++) {
                storedBytes += Files.size(output.outputs().get(i));
            }
            if (captionsKey != null) {
                storedBytes += Files.size(work.resolve("captions.vtt"));
            }
            return new RenderResult(job.jobId(), job.producer(), RenderOutcome.SUCCESS, "video ready", videoKey,
                    thumbnailKey, output.durationSeconds(), output.width(), output.height(), elapsed(started),
                    video.outputs().size() > 1 ? renditions : null, captionsKey, job.clientId(), storedBytes);
        } catch (RenderException e) {
            LOG.infof("render %s failed: %s", job.jobId(), e.getMessage());
            return RenderResult.failure(job, e.getMessage(), elapsed(started));
        } catch (RuntimeException | IOException e) {
            LOG.errorf(e, "render %s failed unexpectedly", job.jobId());
            return RenderResult.failure(job, INTERNAL_ERROR, elapsed(started));
        } finally {
            WorkDirs.delete(work);
        }
    }

    private static String speechKey(String text, String voice, int rate) {
        return voice + "|" + rate + "|" + text;
    }

    private static long elapsed(long started) {
        return Duration.ofNanos(System.nanoTime() - started).toMillis();
    }
}
