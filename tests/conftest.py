"""Shared test set-up: tests run from the checkout root so ``tests.*`` helpers import."""
