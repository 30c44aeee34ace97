package io.pmedia.media.render.graph;

import java.util.ArrayList;
import java.util.List;

import io.pmedia.media.template.AssetKind;

/** How every FFmpeg of a render opens a linked asset: only its kind's demuxers and the local file, its pixels bounded. */
final class InputOptions {

    /** The demuxers a picture, a video and a sound may be opened with: nothing else (no playlists, no protocols). */
    static final String IMAGE_FORMATS = "png_pipe,jpeg_pipe,webp_pipe,gif,bmp_pipe,tiff_pipe";
    static final String VIDEO_FORMATS = "mov,mp4,matroska,webm,avi,gif";
    static final String AUDIO_FORMATS = "mp3,ogg,wav,flac,aac,mov,matroska";
    /** Largest picture a decoder accepts (about 8K x 5K): a small file must not unpack into gigabytes. */
    static final long MAX_PIXELS = 40_000_000L;

    private InputOptions() {
    }

    /** How any FFmpeg opens the linked file {@code name}: only its kind's demuxers, its pixels bounded. */
    static List<String> of(String name, AssetKind kind) {
        List<String> options = new ArrayList<>(List.of("-protocol_whitelist", "file", "-format_whitelist",
                formats(kind)));
        switch (kind) {
            case AUDIO -> options.addAll(List.of("-vn", "-sn", "-dn"));
            case VIDEO -> options.addAll(List.of("-max_pixels", Long.toString(MAX_PIXELS), "-an", "-sn", "-dn"));
            default -> options.addAll(List.of("-max_pixels", Long.toString(MAX_PIXELS)));
        }
        options.addAll(List.of("-i", "file:" + name));
        return options;
    }

    private static String formats(AssetKind kind) {
        return switch (kind) {
            case VIDEO -> VIDEO_FORMATS;
            case AUDIO -> AUDIO_FORMATS;
            default -> IMAGE_FORMATS;
        };
    }
}
