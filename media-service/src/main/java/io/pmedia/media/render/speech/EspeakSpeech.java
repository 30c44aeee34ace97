package io.pmedia.media.render.speech;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.pmedia.media.render.RenderException;
import io.pmedia.media.template.ResolvedVideo;

/**
 * The built-in speech engine: espeak-ng (the Debian package; the media image carries it). The text goes in a file
 * read with {@code -f}; espeak-ng's phoneme brackets ({@code [[...]]}) are taken out of it, and SSML is off (no
 * {@code -m}), so a vendor's text is only ever spoken as words.
 */
public final class EspeakSpeech implements SpeechEngine {

    static final String INSTALL = "install the OS package espeak-ng";
    private final String binary;
    private final Duration limit;

    public EspeakSpeech(String binary, Duration limit) {
        this.binary = binary;
        this.limit = limit;
    }

    @Override
    public void synthesize(ResolvedVideo.Speech speech, Path wav) {
        Path text = wav.resolveSibling(wav.getFileName() + ".txt");
        try {
            Files.writeString(text, spoken(speech.text()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = List.of(binary, "-v", speech.voice(), "-s", Integer.toString(speech.rate()),
                "-w", wav.getFileName().toString(), "-f", text.getFileName().toString());
        Process process;
        try {
            process = new ProcessBuilder(command).directory(wav.getParent().toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            throw new RenderException("espeak-ng could not be started: " + INSTALL);
        }
        try {
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new RenderException("speech '" + speech.id() + "' took longer than " + limit.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new RenderException("render was interrupted");
        }
        if (process.exitValue() != 0 || !Files.isRegularFile(wav)) {
            throw new RenderException("speech '" + speech.id() + "' could not be synthesised with voice '"
                    + speech.voice() + "'");
        }
    }

    /** The text as espeak-ng should read it: phoneme brackets out, one line. */
    public static String spoken(String text) {
        return text.replace("[[", " ").replace("]]", " ").replaceAll("\\s+", " ").strip() + "\n";
    }
}
