package io.pmedia.media.render.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.UUID;

import io.pmedia.storage.ObjectStore;

/**
 * Registered files (fonts, motions) kept on a render worker's disk: fetched from the object store on first use into
 * a partial file and moved into place at once, so a reader never sees half a file. Only for objects whose key never
 * changes its bytes (their catalogs refuse another file under a registered name).
 */
final class CachedObjects {

    private CachedObjects() {
    }

    /** {@code local}, fetched from {@code key} when absent; empty when the store has no such object. */
    static Optional<Path> local(ObjectStore store, String key, Path local) {
        if (Files.isRegularFile(local)) {
            return Optional.of(local);
        }
        try {
            Optional<InputStream> object = store.open(key);
            if (object.isEmpty()) {
                return Optional.empty();
            }
            Files.createDirectories(local.getParent());
            Path partial = local.resolveSibling(local.getFileName() + "." + UUID.randomUUID() + ".part");
            try (InputStream in = object.get()) {
                Files.copy(in, partial);
            }
            Files.move(partial, local, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return Optional.of(local);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
