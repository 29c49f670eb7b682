from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.selectors import club_list


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"clubs": club_list()})
