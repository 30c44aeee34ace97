package io.pmedia.media.worker;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import org.jboss.logging.Logger;

import io.pmedia.media.render.stream.StreamPublisher;
import io.pmedia.storage.ObjectStore;

/**
 * Where a worker keeps the chunk cache's pieces: the object store (every worker's, under the vendor's {@code cache/}
 * prefix; calls retried while it is out) and a size-bounded local directory, least recently used pieces evicted
 * first. A cold worker warms from the store.
 */
final class StoreKeeper implements ChunkCache.Keeper {

    private static final Logger LOG = Logger.getLogger(StoreKeeper.class);

    private final ObjectStore store;
    private final StoreRetry retry;
    private final Path local;
    private final long bound;

    StoreKeeper(ObjectStore store, StoreRetry retry, Path local, long bound) {
        this.store = store;
        this.retry = retry;
        this.local = local;
        this.bound = bound;
    }

    /** The local file of a cached piece: from this worker's directory, else from the store; empty on a miss. */
    @Override
    public Optional<Path> find(String key) {
        return Optional.ofNullable(retry.get(() -> lookup(key).orElse(null), Path.class));
    }

    /** Keeps a newly rendered piece: in the store for every worker, and here. */
    @Override
    public void keep(String key, Path piece) {
        retry.run(() -> store(key, piece));
    }

    private Optional<Path> lookup(String key) {
        Path file = local.resolve(key);
        if (Files.isRegularFile(file)) {
            touch(file);
            return Optional.of(file);
        }
        Optional<InputStream> object = store.open(key);
        if (object.isEmpty()) {
            return Optional.empty();
        }
        try (InputStream in = object.get()) {
            Files.createDirectories(file.getParent());
            Path partial = file.resolveSibling(file.getFileName() + "." + UUID.randomUUID() + ".part");
            Files.copy(in, partial);
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            evict();
            return Optional.of(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void store(String key, Path piece) {
        store.put(key, piece, contentType(key));
        try {
            Path file = local.resolve(key);
            Files.createDirectories(file.getParent());
            Path partial = file.resolveSibling(file.getFileName() + "." + UUID.randomUUID() + ".part");
            Files.copy(piece, partial);
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            evict();
        } catch (IOException e) {
            LOG.warnf("cannot keep piece %s locally: %s", key, e.getMessage());
        }
    }

    private static String contentType(String key) {
        if (key.endsWith(".m4a")) {
            return "audio/mp4";
        }
        if (key.endsWith(".ts")) {
            return "video/mp2t";
        }
        return key.endsWith(".m3u8") ? StreamPublisher.PLAYLIST_TYPE : "video/mp4";
    }

    /** Removes the least recently used pieces while the local directory is over its bound. */
    private synchronized void evict() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(local)) {
            files = new ArrayList<>(walk.filter(Files::isRegularFile)
                    .filter(f -> f.toString().endsWith(".mp4") || f.toString().endsWith(".m4a")
                            || f.toString().endsWith(".ts"))
                    .toList());
        }
        long total = 0;
        for (Path file : files) {
            total += Files.size(file);
        }
        files.sort(Comparator.comparing(StoreKeeper::lastUsed));
        for (Path file : files) {
            if (total <= bound) {
                break;
            }
            total -= Files.size(file);
            Files.deleteIfExists(file);
        }
    }

    private static FileTime lastUsed(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.from(Instant.EPOCH);
        }
    }

    private static void touch(Path file) {
        try {
            Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
        } catch (IOException e) {
            // only the eviction order suffers
        }
    }

}
