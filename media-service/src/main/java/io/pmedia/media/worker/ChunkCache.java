package io.pmedia.media.worker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.render.Concurrently;
import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.render.graph.FilterGraphCompiler;
import io.pmedia.media.render.speech.Cue;
import io.pmedia.media.render.stream.StreamOpenings;
import io.pmedia.media.render.stream.StreamPublisher;
import io.pmedia.media.template.OutputFormat;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;

/**
 * The chunk-level cache (docs/media.md, "Chunk cache"): the timeline is cut into chunks of one stream segment
 * ({@link ChunkPlan}); the runs of chunks where nothing of the request shows are rendered once per vendor, template
 * version, content and encoder setting, kept in the object store under the vendor's {@code cache/} prefix and in a
 * size-bounded directory on each worker, and joined with the request's own runs without re-encoding. The sound, when
 * it does not depend on the request, is encoded once the same way and muxed as it is at the join. A cold worker warms
 * from the store, not by rendering. A new template version is a new key, so nothing needs invalidating.
 */
@ApplicationScoped
public class ChunkCache implements StreamOpenings {

    /**
     * Whose cache, and which template version it is for; {@code everyRequests} when the request's opening is every
     * request's of that version (no cohort rule in the template, no frame-segments in the request): only then is a
     * kept opening named as the version's ({@link VendorNamespace#templateOpening}).
     */
    public record Scope(UUID clientId, UUID templateId, int version, boolean everyRequests) {

        public Scope(UUID clientId, UUID templateId, int version) {
            this(clientId, templateId, version, false);
        }
    }

    /** Bumped when the way pieces are made changes in a way their key does not show. */
    static final String FORMAT = "v3"; // v3: text drawn by the graphics engine (platform-graphics), not drawtext
    private static final Logger LOG = Logger.getLogger(ChunkCache.class);

    /** Where pieces are kept: {@link StoreKeeper} on a worker; a plain directory in the benchmark. */
    public interface Keeper {

        /** The local file of the piece {@code key}; empty when it is not kept. */
        Optional<Path> find(String key);

        /** Keeps {@code file} as the piece {@code key}. */
        void keep(String key, Path file);
    }

    /** An opening's playlist, beside its segments, under its key. */
    static final String OPENING_PLAYLIST = "index.m3u8";

    private final Keeper keeper;
    private final ObjectMapper mapper;
    private final MeterRegistry registry;
    private final boolean enabled;

    @Inject
    public ChunkCache(ObjectStore store, ObjectMapper mapper, StoreRetry retry, MeterRegistry registry,
            MediaConfig config) {
        this(new StoreKeeper(store, retry, config.workDir().resolve("chunk-cache"),
                config.render().segmentCacheSize().asLongValue()), mapper, registry, config.render().segmentCache());
    }

    public ChunkCache(Keeper keeper, ObjectMapper mapper, MeterRegistry registry, boolean enabled) {
        this.keeper = keeper;
        this.mapper = mapper;
        this.registry = registry;
        this.enabled = enabled;
    }

    /**
     * Renders {@code video}: with the cache when it has a chunk that does not depend on the request and only MP4
     * outputs without burnt-in captions; else as one FFmpeg run.
     */
    public RenderEngine.RenderOutput render(RenderEngine engine, Scope scope, ResolvedVideo video,
            Map<String, Path> assets, List<Path> speech, List<Cue> cues, boolean stream, Path work,
            Duration limit) {
        ChunkPlan plan = cacheable(video) && enabled && scope.templateId() != null ? plan(video) : null;
        if (plan == null || !plan.anyStatic()) {
            return engine.render(video, assets, speech, cues, stream, work, limit);
        }
        int cores = Runtime.getRuntime().availableProcessors();
        List<ChunkPlan.Run> runs = plan.runs(cores);
        int outputs = video.outputs().size();
        // what the cache holds first, per run and output (a run past the end of a teaser has no piece of it): a
        // stream can then open with it before anything is rendered
        boolean[][] shows = new boolean[runs.size()][outputs];
        String[][] keys = new String[runs.size()][outputs];
        Path[][] pieces = new Path[runs.size()][outputs];
        List<Integer> starts = new ArrayList<>();
        for (int r = 0; r < runs.size(); r++) {
            ChunkPlan.Run run = runs.get(r);
            for (int i = 0; i < outputs; i++) {
                shows[r][i] = covers(video, i, run);
                if (!run.personal() && shows[r][i]) {
                    keys[r][i] = key(scope, video, run, i);
                    pieces[r][i] = lookup(keys[r][i], work).orElse(null);
                    registry.counter("pmedia.render.chunk.cache", "outcome", pieces[r][i] == null ? "miss" : "hit")
                            .increment();
                }
            }
            starts.add(run.firstFrame());
        }
        Path sound = null;
        String soundKey = null;
        if (video.speeches().isEmpty()) {
            soundKey = soundKey(scope, video);
            sound = lookup(soundKey, work).orElse(null);
            registry.counter("pmedia.render.sound.cache", "outcome", sound == null ? "miss" : "hit").increment();
        }
        // Everything still to make runs at once, each FFmpeg in a directory of its own (a window writes its text
        // files and asset links there): the cached opening's remux, every run with a piece not in the cache (one
        // FFmpeg run writes its pieces of every output), and the sound when it is not (the request's own sound when
        // it has speech: one track, so gapless at every join).
        List<Callable<List<Path>>> steps = new ArrayList<>();
        boolean openedFromCache = stream && pieces[0][0] != null && sound != null;
        if (openedFromCache) {
            // the cached opening plays at once: its segments are published while the personal chunks render, and
            // kept, so that the next request's stream names them at its acceptance (openingPlaylist)
            Path opening = pieces[0][0];
            Path openingSound = sound;
            String openingKey = openingKey(scope, keys[0][0], soundKey);
            steps.add(() -> {
                engine.streamOpening(opening, openingSound, (double) runs.get(0).frames() / video.canvas().fps(),
                        work, limit);
                keepOpening(scope, openingKey, work);
                return List.of(opening);
            });
        }
        Map<Integer, List<Integer>> missing = new LinkedHashMap<>();
        for (int r = 0; r < runs.size(); r++) {
            for (int i = 0; i < outputs; i++) {
                if (pieces[r][i] == null && shows[r][i]) {
                    missing.computeIfAbsent(r, ignored -> new ArrayList<>()).add(i);
                }
            }
        }
        int firstRun = steps.size();
        int rendered = 0;
        // each piece is an encoder of its own, a run writing those of several outputs
        int threads = Math.max(1, cores / Math.max(1, missing.values().stream().mapToInt(List::size).sum()));
        for (Map.Entry<Integer, List<Integer>> entry : missing.entrySet()) {
            ChunkPlan.Run run = runs.get(entry.getKey());
            Path dir = directory(work, "run-" + entry.getKey());
            steps.add(() -> engine.renderRange(video, run.firstFrame(), run.endFrame(), entry.getValue(), threads,
                    assets, dir, limit));
            rendered += run.frames();
        }
        boolean soundMissing = sound == null;
        if (soundMissing) {
            Path dir = directory(work, "sound");
            steps.add(() -> List.of(engine.renderSound(video, "sound.m4a", assets, speech, dir, limit)));
        }
        List<List<Path>> made = Concurrently.all(steps);
        int next = firstRun;
        for (Map.Entry<Integer, List<Integer>> entry : missing.entrySet()) {
            int r = entry.getKey();
            List<Path> files = made.get(next++);
            for (int k = 0; k < files.size(); k++) {
                int i = entry.getValue().get(k);
                if (keys[r][i] != null) {
                    keeper.keep(keys[r][i], files.get(k));
                }
                pieces[r][i] = files.get(k);
            }
        }
        if (soundMissing) {
            sound = made.get(next).get(0);
            if (soundKey != null) {
                keeper.keep(soundKey, sound);
            }
        }
        if (!openedFromCache) {
            keepFirstOpening(engine, scope, video, runs.get(0), keys[0][0], pieces[0][0], soundKey, sound, work,
                    limit);
        }
        LOG.debugf("chunk cache for %s v%d: %d of %d frames rendered, sound %s", scope.templateId(),
                scope.version(), rendered, video.frames(), soundKey == null ? "the request's" : "kept");
        List<List<Path>> joined = new ArrayList<>();
        for (int i = 0; i < outputs; i++) {
            List<Path> own = new ArrayList<>();
            for (int r = 0; r < runs.size(); r++) {
                if (shows[r][i]) {
                    own.add(pieces[r][i]);
                }
            }
            joined.add(own);
        }
        return engine.assemble(video, joined, starts, sound, stream, work, limit);
    }

    /** Whether output {@code i} shows any frame of {@code run}: all do, but a teaser only its first seconds. */
    static boolean covers(ResolvedVideo video, int i, ChunkPlan.Run run) {
        return FilterGraphCompiler.pieceFrames(video, i, run.firstFrame(), run.endFrame()) > 0;
    }

    private static Path directory(Path work, String name) {
        try {
            return Files.createDirectories(work.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The chunks of {@code video}: one stream segment each, personal where the resolver says so. */
    static ChunkPlan plan(ResolvedVideo video) {
        return ChunkPlan.of(video, ChunkPlan.resolved(video),
                video.canvas().fps() * StreamPublisher.STREAM_SEGMENT_SECONDS);
    }

    /**
     * Whether a render of {@code video} can use the cache at all: every output an MP4 (of any size, rate or length;
     * a WebM or a GIF renders in one run, as before), no captions burnt in.
     */
    static boolean cacheable(ResolvedVideo video) {
        return !video.burnInCaptions()
                && video.outputs().stream().allMatch(output -> output.format() == OutputFormat.MP4);
    }

    /**
     * The object key of a static run's piece of output {@code output}: what of every segment it overlaps is the same
     * for everyone ({@link ResolvedVideo.Segment#withoutPersonal()}), where in that segment it starts, its length, the
     * canvas, the template version, the output's size and rate, and the encoder settings, hashed.
     */
    String key(Scope scope, ResolvedVideo video, ChunkPlan.Run run, int output) {
        StringBuilder content = new StringBuilder();
        try {
            for (int k = 0; k < video.segments().size(); k++) {
                int start = video.startFrame(k);
                ResolvedVideo.Segment segment = video.segments().get(k);
                if (start < run.endFrame() && start + segment.frames() > run.firstFrame()) {
                    content.append(mapper.writeValueAsString(segment.withoutPersonal())).append('@')
                            .append(run.firstFrame() - start).append('|');
                }
            }
            content.append(run.frames()).append('|').append(mapper.writeValueAsString(video.canvas()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return prefix(scope) + sha256(FORMAT + "|"
                + FilterGraphCompiler.pieceShape(video, output, run.firstFrame(), run.endFrame()) + "|" + content)
                + ".mp4";
    }

    /** The object key of the video's sound when it does not depend on the request: the sound as resolved, hashed. */
    String soundKey(Scope scope, ResolvedVideo video) {
        try {
            return prefix(scope) + "sound-" + sha256(FORMAT + "|" + mapper.writeValueAsString(video.audio()) + "|"
                    + video.frames() + "/" + video.canvas().fps()) + ".m4a";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The playlist a realtime stream of {@code video} can open with at its acceptance, before any worker has it: an
     * EVENT playlist naming the segments of its cached opening (its first run of static chunks with the cached
     * sound, as {@link #render} kept them for an earlier request of the same template version, vendor and content),
     * each by {@code url}; empty when the video does not open with static chunks, its sound is the request's, or no
     * opening is kept yet. The worker's playlist later continues it.
     */
    @Override
    public Optional<byte[]> openingPlaylist(UUID clientId, UUID templateId, int version, ResolvedVideo video,
            Function<String, String> url) {
        return openingPlaylist(new Scope(clientId, templateId, version), video, url);
    }

    /** {@link #openingPlaylist(UUID, UUID, int, ResolvedVideo, Function)} of a scope. */
    public Optional<byte[]> openingPlaylist(Scope scope, ResolvedVideo video, Function<String, String> url) {
        if (!enabled || scope.templateId() == null || !cacheable(video) || !video.speeches().isEmpty()) {
            return Optional.empty();
        }
        List<ChunkPlan.Run> runs = plan(video).runs();
        if (runs.get(0).personal()) {
            return Optional.empty();
        }
        String openingKey = openingKey(scope, key(scope, video, runs.get(0), 0), soundKey(scope, video));
        Optional<Path> manifest = keeper.find(openingKey + OPENING_PLAYLIST);
        if (manifest.isEmpty()) {
            return Optional.empty();
        }
        try {
            StreamPublisher.Named named = StreamPublisher.named(Files.readAllLines(manifest.get(),
                    StandardCharsets.UTF_8), name -> url.apply(openingKey + name), false);
            return named.segments() == 0
                    ? Optional.empty()
                    : Optional.of(named.text().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Where an opening's segments and playlist are kept: its piece, its sound, hashed. */
    private static String openingKey(Scope scope, String pieceKey, String soundKey) {
        return prefix(scope) + "opening-" + sha256(FORMAT + "|" + pieceKey + "|" + soundKey) + "/";
    }

    /**
     * Keeps the opening FFmpeg has just written in {@code work} (segments first, its playlist last), once, and names
     * it as the template version's opening when it is every request's ({@link Scope#everyRequests}; its segments by
     * key, also for an opening kept before).
     */
    private void keepOpening(Scope scope, String openingKey, Path work) {
        try {
            Path playlist = work.resolve(StreamPublisher.STREAM_FILE);
            List<String> lines = Files.readAllLines(playlist, StandardCharsets.UTF_8);
            if (keeper.find(openingKey + OPENING_PLAYLIST).isEmpty()) {
                for (String line : lines) {
                    if (StreamPublisher.isSegment(line.strip())) {
                        keeper.keep(openingKey + line.strip(), work.resolve(line.strip()));
                    }
                }
                Path copy = Files.createTempFile(work, "opening-", ".m3u8");
                Files.write(copy, lines, StandardCharsets.UTF_8);
                keeper.keep(openingKey + OPENING_PLAYLIST, copy);
            }
            // a static opening without cohort rules depends on no request: a link rendered on view plays it from its
            // first open, before its render reaches a worker
            String version = VendorNamespace.templateOpening(scope.clientId(), scope.templateId(), scope.version());
            if (scope.everyRequests() && keeper.find(version).isEmpty()) {
                Path named = Files.createTempFile(work, "template-opening-", ".m3u8");
                Files.writeString(named, StreamPublisher.named(lines, name -> openingKey + name, false).text(),
                        StandardCharsets.UTF_8);
                keeper.keep(version, named);
            }
        } catch (IOException | RuntimeException e) {
            // the next request opens as before, without it; this one's stream is not affected
            LOG.warnf("cached opening %s not kept: %s", openingKey, e.getMessage());
        }
    }

    /**
     * Keeps the template version's opening from a render that did not stream it from the cache (the version's first
     * render, or one that writes only the MP4), once: a link rendered on view then plays it from its first open
     * rather than after a second streaming render of the version. Remuxed from the opening piece and the sound just
     * made or found (no encoding); only when the opening is every request's and none is named yet. Best effort: the
     * render goes on without it.
     */
    private void keepFirstOpening(RenderEngine engine, Scope scope, ResolvedVideo video, ChunkPlan.Run first,
            String pieceKey, Path piece, String soundKey, Path sound, Path work, Duration limit) {
        if (!scope.everyRequests() || first.personal() || pieceKey == null || piece == null || soundKey == null
                || sound == null) {
            return;
        }
        try {
            if (keeper.find(VendorNamespace.templateOpening(scope.clientId(), scope.templateId(), scope.version()))
                    .isPresent()) {
                return;
            }
            Path dir = directory(work, "opening");
            engine.streamOpening(piece, sound, (double) first.frames() / video.canvas().fps(), dir, limit);
            keepOpening(scope, openingKey(scope, pieceKey, soundKey), dir);
        } catch (RuntimeException e) {
            LOG.warnf("the opening of template %s v%d not kept: %s", scope.templateId(), scope.version(),
                    e.getMessage());
        }
    }

    private static String prefix(Scope scope) {
        return VendorNamespace.Kind.CACHE.prefix(scope.clientId()) + scope.templateId() + "/" + scope.version()
                + "/";
    }

    /**
     * A cached file for this render, linked into its work directory (so that eviction cannot take it mid-render):
     * from this worker's directory, else from the store; empty on a miss.
     */
    Optional<Path> lookup(String key, Path work) {
        Optional<Path> file = keeper.find(key);
        if (file.isEmpty()) {
            return file;
        }
        Path link = work.resolve("cached-" + key.substring(key.lastIndexOf('/') + 1));
        try {
            try {
                Files.createLink(link, file.get());
            } catch (UnsupportedOperationException | IOException e) {
                Files.copy(file.get(), link, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Optional.of(link);
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
