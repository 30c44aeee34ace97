package io.pmedia.batch.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The input file format (docs/batch.md, "The input file"), read as a stream. */
class InputFileTest {

    private static final InputFile.Limits LIMITS = new InputFile.Limits(1_000_000, 10, 100);

    @Test
    void rfc4180QuotingCrlfBlankLinesAndAByteOrderMarkAreRead() throws Exception {
        List<InputFile.Record> records = records(
                "\uFEFFUser-ID , Name\r\nu-1,\"Ada, \"\"the\"\" first\"\r\n\r\nu-2,\"two\nlines\"\n\nu-3,Lin");
        assertThat(records).extracting(InputFile.Record::cells).containsExactly(List.of("u-1", "Ada, \"the\" first"),
                List.of("u-2", "two\nlines"), List.of("u-3", "Lin"));
        assertThat(records).extracting(InputFile.Record::number).containsExactly(1, 2, 3);
    }

    @Test
    void theHeaderIsTrimmedLowerCasedAndChecked() throws Exception {
        try (InputFile file = open("\uFEFFUser-ID , Name\nu-1,Ada\n")) {
            assertThat(file.columns()).containsExactly("user-id", "name");
        }
        assertUnusable("", "the input file is empty");
        assertUnusable("name,offer\nAda,1\n", "the header line has no 'user-id' column");
        assertUnusable("user-id,Name,NAME\n", "the header line names column 'name' twice");
        assertUnusable("user-id,,name\n", "the header line has an empty column name");
        assertUnusable("user-id,a,b,c,d,e,f,g,h,i,j,k\n", "the header line has more than 10 columns");
    }

    @Test
    void aRecordWiderThanTheHeaderKeepsTheHeadersCellsAndCountsTheRest() throws Exception {
        List<InputFile.Record> records = records("user-id,name\nu-1,Ada,x,y\nu-2\n");
        assertThat(records.get(0).cells()).containsExactly("u-1", "Ada");
        assertThat(records.get(0).extraCells()).isEqualTo(2);
        assertThat(records.get(1).cells()).containsExactly("u-2");
        assertThat(records.get(1).extraCells()).isZero();
    }

    @Test
    void whatIsWrongWithAFileIsSaidInTheVendorsTerms() {
        assertUnusable("user-id,name\nu-1,\"Ada\n", "a quoted field is not closed");
        assertUnusable("user-id,name\nu-1,\"Ada\"x\n", "line 2: text after a closing quote");
        assertUnusable("user-id,name\nu-1," + "x".repeat(101) + "\n", "a field is longer than 100 characters");
        assertUnusable("user-id,name\nu-1,Ad\u00e9\n".getBytes(StandardCharsets.ISO_8859_1),
                "the input file is not UTF-8 text");
        assertUnusable(("user-id,name\n" + "u-1,Ada\n".repeat(200_000)).getBytes(StandardCharsets.UTF_8),
                "the input file is larger than 1000000 bytes");
    }

    private static List<InputFile.Record> records(String csv) throws Exception {
        try (InputFile file = open(csv)) {
            List<InputFile.Record> records = new ArrayList<>();
            for (InputFile.Record record = file.next(); record != null; record = file.next()) {
                records.add(record);
            }
            return records;
        }
    }

    private static InputFile open(String csv) throws Exception {
        return InputFile.open(stream(csv.getBytes(StandardCharsets.UTF_8)), LIMITS);
    }

    private static InputStream stream(byte[] bytes) {
        return new ByteArrayInputStream(bytes);
    }

    private static void assertUnusable(String csv, String message) {
        assertUnusable(csv.getBytes(StandardCharsets.UTF_8), message);
    }

    private static void assertUnusable(byte[] csv, String message) {
        assertThatThrownBy(() -> {
            try (InputFile file = InputFile.open(stream(csv), LIMITS)) {
                while (file.next() != null) {
                    // read to the end
                }
            }
        }).isInstanceOf(InputFile.Unusable.class).hasMessageContaining(message);
    }
}
