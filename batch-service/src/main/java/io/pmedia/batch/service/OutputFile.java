package io.pmedia.batch.service;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;

import io.pmedia.batch.BatchRow;
import io.pmedia.batch.RowStatus;

/**
 * A task's output file (docs/batch.md, "The output file"), written line by line with Jackson's CSV generator: one line
 * per row with its own status and message, the path and URL of its video, its thumbnail's URL and its durable share
 * page ({@code share-url}, docs/sharing.md: what a vendor mail-merges). A cell a spreadsheet
 * would run as a formula (leading {@code =}, {@code +}, {@code -}, {@code @}, tab or carriage return: OWASP's CSV
 * injection list) gets a leading {@code '}; quotes only where CSV needs them.
 */
public final class OutputFile implements AutoCloseable {

    /** One line of the file. */
    @JsonPropertyOrder({"row", "user-id", "status", "video-path", "video-url", "image-url", "share-url", "message"})
    public record Line(int row, @JsonProperty("user-id") String userId, String status,
            @JsonProperty("video-path") String videoPath, @JsonProperty("video-url") String videoUrl,
            @JsonProperty("image-url") String imageUrl, @JsonProperty("share-url") String shareUrl, String message) {
    }

    /** The message of a row rendered on first view that has not been opened. */
    static final String ON_VIEW = "rendered when share-url is first opened";

    private static final CsvMapper CSV = CsvMapper.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .build();
    private static final CsvSchema SCHEMA = CSV.schemaFor(Line.class).withHeader().withLineSeparator("\r\n");

    private final BufferedWriter out;
    private final SequenceWriter lines;

    private OutputFile(Path file) throws IOException {
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        this.lines = CSV.writer(SCHEMA).writeValues(out);
    }

    /** A new file at {@code file} (replaced if it exists), its header written. */
    public static OutputFile create(Path file) throws IOException {
        return new OutputFile(file);
    }

    /** One row's line; the paths and URLs of its outputs (and its share page) are null when it has none. */
    public void add(BatchRow row, String videoPath, String videoUrl, String imageUrl, String shareUrl)
            throws IOException {
        lines.write(new Line(row.rowNo(), cell(row.userId()), row.status().wire(), cell(videoPath), cell(videoUrl),
                cell(imageUrl), cell(shareUrl), cell(row.status() == RowStatus.ON_VIEW && row.message() == null
                        ? ON_VIEW
                        : row.message())));
    }

    @Override
    public void close() throws IOException {
        try (out) {
            lines.close();
        }
    }

    /** A cell, neutralised when a spreadsheet would read it as a formula. */
    static String cell(String value) {
        if (value == null || value.isEmpty()) {
            return value;
        }
        return "=+-@\t\r".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
    }
}
