package io.pmedia.media.render.speech;

/** One caption: {@code text} shown from {@code start} to {@code end} seconds into the video. */
public record Cue(double start, double end, String text) {
}
