"""Ticket to Ride on Discord."""
