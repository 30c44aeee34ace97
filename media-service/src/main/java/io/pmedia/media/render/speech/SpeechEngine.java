package io.pmedia.media.render.speech;

import java.io.IOException;
import java.nio.file.Path;

import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.UnsupportedAudioFileException;

import io.pmedia.media.render.RenderException;
import io.pmedia.media.template.ResolvedVideo;

/**
 * Turns the text of a speech layer into a WAV file. The text is a vendor's: an engine hands it over as data (a file,
 * a JSON body), never on a command line or in markup it interprets.
 */
public interface SpeechEngine {

    /**
     * Writes the speech into {@code wav}.
     *
     * @throws RenderException with a message for the vendor when it cannot be synthesised
     */
    void synthesize(ResolvedVideo.Speech speech, Path wav);

    /**
     * The length of a synthesised WAV in seconds.
     *
     * @throws RenderException when it is not a WAV file
     */
    static double seconds(Path wav) {
        try {
            AudioFileFormat format = AudioSystem.getAudioFileFormat(wav.toFile());
            if (format.getFrameLength() < 0 || format.getFormat().getFrameRate() <= 0) {
                throw new RenderException("the synthesised speech has no length");
            }
            return format.getFrameLength() / (double) format.getFormat().getFrameRate();
        } catch (UnsupportedAudioFileException | IOException e) {
            throw new RenderException("the synthesised speech cannot be read back");
        }
    }
}
