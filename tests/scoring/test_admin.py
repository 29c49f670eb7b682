import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.log import store
from scoring.log.events import HandStarted
from scoring.models import StoredEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client) -> Client:
    user = User.objects.create_superuser("boss", "boss@example.com", "pw")
    client.force_login(user)
    return client


@pytest.fixture
def event() -> StoredEvent:
    store.append(
        "hand-1", [HandStarted(game="scopa", options={}, seats=("a", "b"), dealer=0)], expected_version=0
    )
    return StoredEvent.objects.get()


def test_the_admin_lists_events(staff: Client, event: StoredEvent) -> None:
    response = staff.get("/admin/scoring/storedevent/")

    assert response.status_code == 200
    assert b"hand-1" in response.content


def test_the_admin_shows_an_event_read_only(staff: Client, event: StoredEvent) -> None:
    response = staff.get(f"/admin/scoring/storedevent/{event.pk}/change/")

    assert response.status_code == 200
    assert b'name="_save"' not in response.content


def test_the_admin_cannot_add_change_or_delete_events(staff: Client, event: StoredEvent) -> None:
    assert staff.get("/admin/scoring/storedevent/add/").status_code == 403
    assert staff.post(f"/admin/scoring/storedevent/{event.pk}/change/", {"stream_id": "x"}).status_code == 403
    assert staff.post(f"/admin/scoring/storedevent/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert StoredEvent.objects.get().stream_id == "hand-1"
