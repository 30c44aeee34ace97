package io.pmedia.media.template;

/**
 * The limits of a template and of the data applied to it, in one table: the validator checks a template against
 * them when it is registered, and the resolver checks a request's data (durations, texts) against the same values,
 * so a template that passes renders with any request the resolver accepts.
 */
public final class TemplateLimits {

    /** The larger canvas side; the smaller is at most {@link #MAX_SHORT_SIDE} (1920x1080 or 1080x1920). */
    public static final int MAX_LONG_SIDE = 1920;
    public static final int MAX_SHORT_SIDE = 1080;
    public static final int MIN_SIDE = 16;
    public static final int MAX_FPS = 60;
    public static final double MAX_DURATION = 120;
    public static final double MIN_SEGMENT_DURATION = 0.1;
    public static final int MAX_SEGMENTS = 30;
    public static final int MAX_LAYERS = 20;
    public static final int MAX_VARIANTS = 10;
    public static final int MAX_FIELDS = 30;
    public static final int MAX_SLOTS = 10;
    public static final int MAX_TEXT = 500;
    public static final int MAX_COORDINATE = 4000;
    public static final int MAX_OUTPUTS = 6;
    public static final int MAX_GIF_HEIGHT = 480;
    public static final double MAX_TRANSITION = 5;
    public static final int MIN_SPEECH_RATE = 80;
    public static final int MAX_SPEECH_RATE = 450;

    private TemplateLimits() {
    }
}
