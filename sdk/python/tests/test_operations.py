"""Which requests are retried is read from docs/openapi.yaml: every operation the document marks
`x-pmedia-idempotent: true` is sent again after a 503, and no other POST or PATCH is. The document is read here on its
own (a line scan of its paths, methods and marks), not through the generated table the SDK uses, so a table that
missed or invented a mark fails."""
from __future__ import annotations

import re
import unittest
from pathlib import Path
from typing import Dict, List, Tuple

from pmedia_client import PmediaClient, idempotent
from pmedia_client.generated.operations import CONTRACT_OPERATIONS

from test_client import Answer, FakeApi, error

DOCUMENT = Path(__file__).resolve().parents[3] / "docs" / "openapi.yaml"

Operation = Tuple[str, str, bool]


def document_operations() -> List[Operation]:
    """Every operation of the document: method, path template, and whether it is marked x-pmedia-idempotent."""
    operations: List[List[object]] = []
    path = None
    current: List[object] = []
    for line in DOCUMENT.read_text(encoding="utf-8").splitlines():
        path_line = re.fullmatch(r" {2}(/\S*):\s*", line)
        method_line = re.fullmatch(r" {4}(get|put|post|delete|patch|head|options):\s*", line)
        if path_line:
            path, current = path_line.group(1), []
        elif re.match(r"\S", line):
            path, current = None, []
        elif method_line and path:
            current = [method_line.group(1).upper(), path, False]
            operations.append(current)
        elif current and re.fullmatch(r" {6}x-pmedia-idempotent:\s*true\s*", line):
            current[2] = True
    return [(str(m), str(p), bool(marked)) for m, p, marked in operations]


class OperationsTest(unittest.TestCase):

    def test_the_generated_table_holds_every_operation_of_the_document_with_its_mark(self) -> None:
        from_document = sorted(document_operations())
        self.assertGreater(len(from_document), 60)
        self.assertEqual(sorted((o.method, o.path, o.marked_idempotent) for o in CONTRACT_OPERATIONS), from_document)

    def test_the_marks_are_the_ones_the_retries_were_written_for(self) -> None:
        self.assertEqual(sorted(f"{m} {p}" for m, p, marked in document_operations() if marked),
                         ["POST /auth/token", "POST /media/demo", "POST /media/task/uploads",
                          "POST /templates/{templateId}/preview", "POST /video/demo"])
        self.assertTrue(idempotent("POST", "/templates/abc/preview"))
        self.assertFalse(idempotent("POST", "/templates/abc/preview/x"))
        self.assertFalse(idempotent("POST", "/media/task/create"))
        self.assertFalse(idempotent("PATCH", "/admin/clients/abc"))
        self.assertTrue(idempotent("DELETE", "/admin/clients/abc"))

    def test_every_operation_marked_idempotent_is_retried_after_a_503_and_no_other_post_or_patch_is(self) -> None:
        mutating = [o for o in document_operations() if o[0] in ("POST", "PATCH")]
        self.assertTrue(any(marked for _, _, marked in mutating) and not all(marked for _, _, marked in mutating))
        sent: Dict[str, int] = {}

        def handler(method: str, path: str, headers: Dict[str, str], body: bytes) -> Answer:
            key = f"{method} {path}"
            sent[key] = sent.get(key, 0) + 1
            return error(503, "SERVICE_UNAVAILABLE", "busy", {"Retry-After": "0"}) if sent[key] == 1 else (200, {}, {})
        api = FakeApi(handler)
        try:
            pmedia = PmediaClient(api.url, sleep=lambda _: None)
            client = pmedia.api(lambda generated: generated)  # the ApiClient every generated operation sends through
            wrong = []
            for method, template, marked in mutating:
                path = re.sub(r"\{[^}]+\}", "x-1", template)
                response = client.call_api(method, api.url + path, {"Content-Type": "application/json"}, body={})
                expected = (200, 2) if marked else (503, 1)
                if (response.status, sent.get(f"{method} {path}", 0)) != expected:
                    wrong.append(f"{method} {template} (marked {marked}): answered {response.status}, "
                                 f"sent {sent.get(f'{method} {path}', 0)} times")
            self.assertEqual(wrong, [])
        finally:
            api.close()


if __name__ == "__main__":
    unittest.main()
