package io.pmedia.media.render;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.jboss.logging.Logger;

/** The work directories of renders and previews: made per job, removed with everything in them afterwards. */
public final class WorkDirs {

    private static final Logger LOG = Logger.getLogger(WorkDirs.class);

    private WorkDirs() {
    }

    /** Removes {@code directory} and everything in it; what cannot be removed is logged, not thrown. */
    public static void delete(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    LOG.warnf("cannot remove %s: %s", path, e.getMessage());
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // Files.walk reports a directory it cannot read while walking as UncheckedIOException
            LOG.warnf("cannot clean %s: %s", directory, e.getMessage());
        }
    }
}
