package io.pmedia.batch.service;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;

/**
 * A task's input file, read as a stream with Jackson's CSV parser: the header line, then one data record at a time,
 * so memory stays bounded whatever the size of the file (docs/batch.md, "The input file"). UTF-8 (an optional
 * byte-order mark), RFC 4180 quoting, LF or CRLF; blank lines are skipped. Every limit is checked as the bytes arrive:
 * the file's size, the number of columns, the length of a cell, the cells of a record beyond the header's.
 */
public final class InputFile implements AutoCloseable {

    /** Why a file cannot be used; the message is shown to the vendor (after {@code "input file: "}). */
    public static final class Unusable extends Exception {
        public Unusable(String message) {
            super(message, null, false, false);
        }
    }

    /** The limits of one file. */
    public record Limits(long maxBytes, int maxColumns, int maxCellChars) {
    }

    /**
     * One data record: its number among the data records (1 = the line after the header, blank lines not counted),
     * its cells up to the header's width, and how many cells it has beyond the header's.
     */
    public record Record(int number, List<String> cells, int extraCells) {
    }

    /** Raised by the byte stream under the parser when the file grows past its limit. */
    private static final class TooLarge extends IOException {
        TooLarge() {
            super(null, null);
        }
    }

    private final JsonParser parser;
    private final Limits limits;
    private final List<String> columns;
    private int records;

    private InputFile(JsonParser parser, Limits limits) throws IOException, Unusable {
        this.parser = parser;
        this.limits = limits;
        List<String> header = nextCells(limits.maxColumns());
        if (header == null) {
            throw new Unusable("the input file is empty");
        }
        this.columns = Collections.unmodifiableList(header(header));
    }

    /** Opens {@code in} (the caller closes it) and reads the header line. */
    public static InputFile open(InputStream in, Limits limits) throws IOException, Unusable {
        CsvFactory factory = CsvFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(limits.maxCellChars()).build())
                .enable(CsvParser.Feature.SKIP_EMPTY_LINES)
                .build();
        // A strict decoder: a file that is not UTF-8 is refused, not read with replacement characters.
        InputStreamReader reader = new InputStreamReader(new Bounded(in, limits.maxBytes()),
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT));
        JsonParser parser = factory.createParser(reader);
        try {
            return new InputFile(parser, limits);
        } catch (IOException | Unusable | RuntimeException e) {
            parser.close();
            throw e;
        }
    }

    /** The header's column names: trimmed, lower case, unique, {@code user-id} among them. */
    public List<String> columns() {
        return columns;
    }

    /** The next data record, or null at the end of the file. */
    public Record next() throws IOException, Unusable {
        List<String> cells = new ArrayList<>(columns.size());
        int extra = 0;
        try {
            JsonToken token = parser.nextToken();
            if (token == null) {
                return null;
            }
            for (token = parser.nextToken(); token != JsonToken.END_ARRAY && token != null; token = parser
                    .nextToken()) {
                if (cells.size() < columns.size()) {
                    cells.add(parser.getText());
                } else {
                    extra++;
                }
            }
        } catch (IOException e) {
            throw unusable(e);
        }
        records++;
        return new Record(records, cells, extra);
    }

    @Override
    public void close() throws IOException {
        parser.close();
    }

    /** The cells of the next record, at most {@code max} + 1 of them; null at the end. */
    private List<String> nextCells(int max) throws IOException, Unusable {
        try {
            if (parser.nextToken() == null) {
                return null;
            }
            List<String> cells = new ArrayList<>();
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY && token != null; token = parser
                    .nextToken()) {
                if (cells.size() > max) {
                    throw new Unusable("the header line has more than " + max + " columns");
                }
                cells.add(parser.getText());
            }
            return cells;
        } catch (IOException e) {
            throw unusable(e);
        }
    }

    private static List<String> header(List<String> cells) throws Unusable {
        List<String> names = new ArrayList<>(cells.size());
        for (String cell : cells) {
            String name = (names.isEmpty() && cell.startsWith("\uFEFF") ? cell.substring(1) : cell).strip()
                    .toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                throw new Unusable("the header line has an empty column name");
            }
            if (names.contains(name)) {
                throw new Unusable("the header line names column '" + name + "' twice");
            }
            names.add(name);
        }
        if (!names.contains(Columns.USER_ID)) {
            throw new Unusable("the header line has no '" + Columns.USER_ID + "' column");
        }
        return names;
    }

    /**
     * What is wrong with the file, in the vendor's terms; an I/O failure of the store itself is rethrown (the read is
     * tried again later).
     */
    private Unusable unusable(IOException e) throws IOException {
        int line = parser.currentLocation().getLineNr();
        if (e instanceof StreamConstraintsException) {
            return new Unusable("line " + line + ": a field is longer than " + limits.maxCellChars() + " characters");
        }
        if (e instanceof JsonProcessingException parse) {
            int at = parse.getLocation() == null ? line : parse.getLocation().getLineNr();
            String reason = parse.getOriginalMessage();
            if (reason.startsWith("Missing closing quote")) {
                return new Unusable("line " + at + ": a quoted field is not closed");
            }
            if (reason.contains("Expected column separator")) {
                return new Unusable("line " + at + ": text after a closing quote");
            }
            return new Unusable("line " + at + ": not valid CSV (" + reason + ")");
        }
        if (e instanceof CharacterCodingException) {
            return new Unusable("the input file is not UTF-8 text (line " + line + ")");
        }
        if (e instanceof TooLarge) {
            return new Unusable("the input file is larger than " + limits.maxBytes() + " bytes");
        }
        throw e;
    }

    /** The bytes of the file, refused past {@code max}: the object may have grown since the task was accepted. */
    private static final class Bounded extends FilterInputStream {

        private long left;

        Bounded(InputStream in, long max) {
            super(in);
            this.left = max;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0 && --left < 0) {
                throw new TooLarge();
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                left -= n;
                if (left < 0) {
                    throw new TooLarge();
                }
            }
            return n;
        }
    }
}
