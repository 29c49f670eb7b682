import pytest
from rest_framework.test import APIClient

from tests.scoring.api_support import People, client_for, make_people


@pytest.fixture
def people(db: None) -> People:
    """The personas at a club of their own (see :class:`tests.scoring.api_support.People`)."""
    return make_people()


@pytest.fixture
def director(people: People) -> APIClient:
    """An API client signed in as the club's director."""
    return client_for(people.director)


@pytest.fixture
def scorer(people: People) -> APIClient:
    """An API client signed in as the scorer the tests assign to their matches."""
    return client_for(people.scorer)
