package io.pmedia.media.render.graphics;

import java.nio.file.Path;

import io.pmedia.graphics.draw.VideoFrames;
import io.pmedia.media.template.ResolvedVideo;

/**
 * How a video with keyframes reaches the engine: its file decoded into frames of {@code width} x {@code height}, as
 * its overlay would show it (from its start for its time, at the render's frame rate, fitted to its box by its
 * {@code fit}). Implemented where the inputs are opened (SegmentGraph), with the same demuxers and pixel bound.
 */
@FunctionalInterface
public interface VideoDecoding {

    VideoFrames frames(ResolvedVideo.Picture video, Path file, int width, int height);
}
