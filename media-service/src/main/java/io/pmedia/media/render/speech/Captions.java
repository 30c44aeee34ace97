package io.pmedia.media.render.speech;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.pmedia.media.template.ResolvedVideo;

/**
 * Captions of a render: each speech layer's text split into cues of at most {@value #CUE_LENGTH} characters, two
 * lines of {@value #LINE_LENGTH} (at word boundaries), that share its spoken time in proportion to their length, and, when the template asks, each text
 * layer's text for its time on screen. Written as WebVTT with the text escaped, so a vendor's text cannot add cues,
 * settings or markup.
 */
public final class Captions {

    /** The longest caption line, and the most lines of a cue (the usual subtitle rule: two lines of 42). */
    static final int LINE_LENGTH = 42;
    public static final int CUE_LINES = 2;
    public static final int CUE_LENGTH = LINE_LENGTH * CUE_LINES;

    private Captions() {
    }

    /**
     * @param spoken the length in seconds of each of {@link ResolvedVideo#speeches()}, in that order
     */
    public static List<Cue> cues(ResolvedVideo video, List<Double> spoken) {
        List<Cue> cues = new ArrayList<>();
        List<ResolvedVideo.TimedSpeech> speeches = video.speeches();
        for (int i = 0; i < speeches.size(); i++) {
            ResolvedVideo.TimedSpeech speech = speeches.get(i);
            double end = Math.min(speech.end(), speech.start() + spoken.get(i));
            split(speech.speech().text(), speech.start(), end, cues);
        }
        if (video.textCaptions()) {
            for (int k = 0; k < video.segments().size(); k++) {
                double offset = video.startSeconds(k);
                for (ResolvedVideo.Layer layer : video.segments().get(k).layers()) {
                    if (layer instanceof ResolvedVideo.Text text) {
                        split(text.text(), offset + text.start(), offset + text.end(), cues);
                    }
                }
            }
        }
        cues.sort((a, b) -> Double.compare(a.start(), b.start()));
        return oneAtATime(cues);
    }

    /**
     * The cues, in order of their start, each ending no later than the next one starts: speech of the next segment
     * may begin while the last words of a transition's first side are still captioned, and two cues drawn at once
     * overprint each other. A cue that would be left without time is dropped.
     */
    public static List<Cue> oneAtATime(List<Cue> cues) {
        List<Cue> sorted = new ArrayList<>(cues);
        sorted.sort((a, b) -> Double.compare(a.start(), b.start()));
        List<Cue> shown = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            Cue cue = sorted.get(i);
            double end = i + 1 < sorted.size() ? Math.min(cue.end(), sorted.get(i + 1).start()) : cue.end();
            if (end > cue.start()) {
                shown.add(end == cue.end() ? cue : new Cue(cue.start(), end, cue.text()));
            }
        }
        return shown;
    }

    private static void split(String text, double start, double end, List<Cue> cues) {
        if (end <= start) {
            return;
        }
        List<String> chunks = new ArrayList<>();
        StringBuilder chunk = new StringBuilder();
        for (String word : text.strip().split("\\s+")) {
            if (!chunk.isEmpty() && chunk.length() + 1 + word.length() > CUE_LENGTH) {
                chunks.add(chunk.toString());
                chunk.setLength(0);
            }
            chunk.append(chunk.isEmpty() ? "" : " ").append(word);
        }
        if (!chunk.isEmpty()) {
            chunks.add(chunk.toString());
        }
        int total = chunks.stream().mapToInt(String::length).sum();
        double at = start;
        for (String part : chunks) {
            double length = (end - start) * part.length() / Math.max(1, total);
            cues.add(new Cue(at, Math.min(end, at + length), part));
            at += length;
        }
    }

    /** The cues as a WebVTT file. */
    public static String webVtt(List<Cue> cues) {
        StringBuilder out = new StringBuilder("WEBVTT\n");
        for (Cue cue : cues) {
            out.append('\n').append(time(cue.start())).append(" --> ").append(time(cue.end())).append('\n')
                    .append(escape(cue.text())).append('\n');
        }
        return out.toString();
    }

    /** Cue text as WebVTT reads it literally: no line breaks (a blank line would end the cue), no markup. */
    static String escape(String text) {
        return text.replaceAll("\\s+", " ").strip().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    static String time(double seconds) {
        long millis = Math.round(seconds * 1000);
        return String.format(Locale.ROOT, "%02d:%02d:%02d.%03d", millis / 3_600_000, millis / 60_000 % 60,
                millis / 1000 % 60, millis % 1000);
    }
}
