package io.pmedia.media.worker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/** The chunk cache's pieces in one local directory, as a worker's warm local cache holds them (tests, benchmarks). */
public record DirectoryKeeper(Path dir) implements ChunkCache.Keeper {

    @Override
    public Optional<Path> find(String key) {
        Path file = dir.resolve(key);
        return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
    }

    @Override
    public void keep(String key, Path file) {
        try {
            Files.createDirectories(dir.resolve(key).getParent());
            Files.copy(file, dir.resolve(key), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
