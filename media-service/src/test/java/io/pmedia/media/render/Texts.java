package io.pmedia.media.render;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The text files a compilation wrote for one text layer, line by line. */
public final class Texts {

    private Texts() {
    }

    /** The files of layer {@code layer} of segment {@code segment}, in line order. */
    static List<Path> files(Path workDir, int segment, int layer) {
        String prefix = "text-" + segment + "-" + layer + "-";
        try (Stream<Path> files = Files.list(workDir)) {
            return files.filter(file -> file.getFileName().toString().startsWith(prefix))
                    .sorted((a, b) -> Integer.compare(line(a, prefix), line(b, prefix))).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The layer's text as drawn, its lines joined by spaces. */
    static String drawn(Path workDir, int segment, int layer) {
        return files(workDir, segment, layer).stream().map(file -> {
            try {
                return Files.readString(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).collect(Collectors.joining(" "));
    }

    private static int line(Path file, String prefix) {
        String name = file.getFileName().toString();
        return Integer.parseInt(name.substring(prefix.length(), name.length() - ".txt".length()));
    }
}
