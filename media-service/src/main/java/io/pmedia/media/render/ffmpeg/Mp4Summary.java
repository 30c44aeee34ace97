package io.pmedia.media.render.ffmpeg;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The few facts of an MP4 the engine checks after every render (duration, tracks and frame size), read from the
 * {@code moov} box in Java. It does what an ffprobe run would, without starting a process: with {@code +faststart}
 * the box is at the front of the file, and a render should not pay a tenth of a second to be checked.
 * {@link FfmpegRunner#probe(Path)} remains the general tool.
 */
public final class Mp4Summary {

    /** Largest {@code moov} box read (a 2-minute video's is far smaller). */
    private static final long MAX_MOOV = 16L << 20;

    /** A track: {@code video} or {@code audio} (else the handler's four letters), with its frame size. */
    record Track(String kind, int width, int height) {
    }

    private Mp4Summary() {
    }

    /** Duration in seconds and the tracks, as an {@link FfmpegRunner.Probe}; null when the file is not an MP4. */
    public static FfmpegRunner.Probe read(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long position = 0;
            long size = channel.size();
            while (position + 8 <= size) {
                ByteBuffer header = ByteBuffer.allocate(16);
                channel.read(header, position);
                header.flip();
                long length = Integer.toUnsignedLong(header.getInt());
                String type = type(header);
                int headerLength = 8;
                if (length == 1) {
                    length = header.getLong();
                    headerLength = 16;
                } else if (length == 0) {
                    length = size - position;
                }
                if (length < headerLength) {
                    return null;
                }
                if (type.equals("moov")) {
                    if (length > MAX_MOOV) {
                        return null;
                    }
                    ByteBuffer moov = ByteBuffer.allocate((int) (length - headerLength));
                    channel.read(moov, position + headerLength);
                    moov.flip();
                    return moov(moov);
                }
                position += length;
            }
            return null;
        }
    }

    private static FfmpegRunner.Probe moov(ByteBuffer moov) {
        double duration = 0;
        List<FfmpegRunner.Stream> streams = new ArrayList<>();
        for (ByteBuffer box : children(moov)) {
            String type = type(box);
            if (type.equals("mvhd")) {
                int version = box.get() & 0xff;
                box.position(box.position() + 3 + (version == 1 ? 16 : 8));
                long timescale = Integer.toUnsignedLong(box.getInt());
                long units = version == 1 ? box.getLong() : Integer.toUnsignedLong(box.getInt());
                duration = timescale == 0 ? 0 : (double) units / timescale;
            } else if (type.equals("trak")) {
                Track track = track(box);
                streams.add(new FfmpegRunner.Stream(track.kind(), "", track.width(), track.height()));
            }
        }
        FfmpegRunner.Stream picture = streams.stream().filter(s -> s.kind().equals("video")).findFirst()
                .orElse(null);
        return new FfmpegRunner.Probe(duration, picture == null ? 0 : picture.width(),
                picture == null ? 0 : picture.height(), List.copyOf(streams));
    }

    private static Track track(ByteBuffer trak) {
        int width = 0;
        int height = 0;
        String kind = "";
        for (ByteBuffer box : children(trak)) {
            String type = type(box);
            if (type.equals("tkhd")) {
                int version = box.get() & 0xff;
                box.position(box.position() + 3 + (version == 1 ? 32 : 20) + 8 + 8 + 36);
                width = box.getInt() >>> 16;
                height = box.getInt() >>> 16;
            } else if (type.equals("mdia")) {
                for (ByteBuffer inner : children(box)) {
                    if (type(inner).equals("hdlr")) {
                        inner.position(inner.position() + 8);
                        String handler = type(inner);
                        kind = switch (handler) {
                            case "vide" -> "video";
                            case "soun" -> "audio";
                            default -> handler;
                        };
                    }
                }
            }
        }
        return new Track(kind, kind.equals("video") ? width : 0, kind.equals("video") ? height : 0);
    }

    /** The boxes inside {@code parent}, each positioned just after its type. */
    private static List<ByteBuffer> children(ByteBuffer parent) {
        List<ByteBuffer> boxes = new ArrayList<>();
        ByteBuffer all = parent.slice();
        while (all.remaining() >= 8) {
            int start = all.position();
            long length = Integer.toUnsignedLong(all.getInt());
            if (length < 8 || length > all.remaining() + 4) {
                break;
            }
            ByteBuffer box = all.slice(start, (int) length);
            box.position(4);
            boxes.add(box);
            all.position(start + (int) length);
        }
        return boxes;
    }

    /** The next four bytes as a box type. */
    private static String type(ByteBuffer buffer) {
        byte[] type = new byte[4];
        buffer.get(type);
        return new String(type, StandardCharsets.ISO_8859_1);
    }

    public static boolean isJpeg(Path file) throws IOException {
        try (InputStream in = java.nio.file.Files.newInputStream(file)) {
            byte[] start = in.readNBytes(3);
            return start.length == 3 && (start[0] & 0xff) == 0xff && (start[1] & 0xff) == 0xd8
                    && (start[2] & 0xff) == 0xff;
        }
    }
}
