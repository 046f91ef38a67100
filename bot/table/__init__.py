"""The application layer: tables, seats, lobby rules and use cases, with no Discord in it.

`TableService` (service.py) is the entry point; it can be driven by the Discord side, a test or
a terminal. Below it sit the engine (rules), the AI (seats that think) and storage (durability).
"""
