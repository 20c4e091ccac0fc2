"""The browser app of `judge serve`: play and explore the games, watch a bot play.

`sessions` holds the games (pure Python); `app` is the HTTP and WebSocket layer (Starlette,
the optional extra ``web``), with its pages in `templates` and its scripts in `static`;
`guard` decides who may use it (the hosts answered, no other site's page, the token off
loopback).
"""
